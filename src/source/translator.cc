#include "source/translator.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>
#include <unordered_set>

#include <fmt/format.h>

#include "common/memory.h"
#include "common/text.h"
#include "source/compat.h"
#include "source/engine.h"

namespace gpuport::source {

using lex::TokenKind;

// ---------------------------------------------------------------------------------------------
// Engine

namespace {
// Per-thread buffers an Engine borrows for its token lists and hands back when it is done.
thread_local std::vector<std::uint32_t> spare_sig;
// Output text storage, handed back by recycle_output() once the caller has written it.
thread_local std::string spare_output;
}  // namespace

void recycle_output(std::string&& text) {
  if (text.capacity() > spare_output.capacity()) spare_output = std::move(text);
}

Engine::Engine(std::string_view path, const lex::TokenStream& tokens, const maps::ApiMap& map,
               const TranslateOptions& options, FileTranslation& result)
    : path_(path), tokens_(tokens), map_(map), options_(options), result_(result), source_data_(tokens.text().data()),
      all_tokens_(tokens.tokens().data()) {
  // Reuse the last file's buffers on this thread (no fresh pages to fault in per file).
  sig_.swap(spare_sig);
  reserve_fresh(sig_, tokens.size() / 2 + 16);
  // One sweep collects the significant tokens, the directives and the device-code regions:
  // a body that follows __global__ or __device__ (before any ';') is device code, lambdas
  // marked __device__ too. Directive tokens do not count: macros are not functions.
  std::size_t depth = 0;
  bool pending = false;
  bool pending_host = false;
  struct Open {
    std::size_t depth, start;
    bool host;
  };
  std::vector<Open> open;
  std::vector<std::uint32_t> open_braces;  // code_braces_ entries not closed yet
  // Skipped groups are left out of the significant tokens: no pass sees them, and their text
  // is copied as it is.
  std::vector<bool> excluded;
  if (options.skip_excluded_groups) excluded = excluded_tokens(tokens, options.preprocessor);
  for (std::uint32_t index = 0; index < tokens.size(); ++index) {
    const auto& t = tokens[index];
    if (t.is_trivia()) continue;
    if (!excluded.empty() && excluded[index]) continue;
    const std::size_t i = sig_.size();
    sig_.push_back(index);
    if (t.kind == TokenKind::identifier) {
      const std::string_view name(source_data_ + t.offset, t.length);
      if (map.is_declared_type(name)) declared_type_tokens_.push_back(static_cast<std::uint32_t>(i));
      if ((t.length == 8 || t.length == 9 || t.length == 11) &&
          (name == "threadIdx" || name == "blockDim" || name == "__lane_id" || name == "thread_rank"))
        lane_seed_tokens_.push_back(static_cast<std::uint32_t>(i));
    }
    // Launches count in macro bodies too (#define LAUNCH k<<<1, 1>>>()).
    if (t.kind == TokenKind::punctuator && t.length == 3 && source_data_[t.offset] == '<' &&
        source_data_[t.offset + 1] == '<' && source_data_[t.offset + 2] == '<')
      has_launches_ = true;
    if (t.has(lex::kInDirective)) {
      if (t.has(lex::kDirectiveHash)) directives_.push_back(i);
      continue;
    }
    const char* c = source_data_ + t.offset;
    if (t.kind == TokenKind::identifier) {
      if (t.length < 8 || c[0] != '_' || c[1] != '_') continue;
      const std::string_view s(c, t.length);
      if (s == "__global__" || s == "__device__") {
        pending = true;
        has_device_keywords_ = true;
      } else if (s == "__host__") {
        pending_host = true;
      } else if (s == "__shared__" || s == "__constant__") {
        has_device_keywords_ = true;
      }
      continue;
    }
    if (t.kind != TokenKind::punctuator || t.length != 1) continue;
    if (c[0] == ';') {
      pending = pending_host = false;
    } else if (c[0] == '(') {
      if (i > 0 && tokens[sig_[i - 1]].kind == TokenKind::identifier && !tokens[sig_[i - 1]].has(lex::kInDirective))
        names_before_paren_.push_back(static_cast<std::uint32_t>(i - 1));
    } else if (c[0] == '{') {
      if (pending && open.empty()) open.push_back({depth, i, pending_host});
      pending = pending_host = false;
      ++depth;
      open_braces.push_back(static_cast<std::uint32_t>(code_braces_.size()));
      code_braces_.push_back({static_cast<std::uint32_t>(i), kUnclosed});
    } else if (c[0] == '}') {
      if (depth > 0) --depth;
      if (!open_braces.empty()) {
        code_braces_[open_braces.back()].second = static_cast<std::uint32_t>(i);
        open_braces.pop_back();
      }
      if (!open.empty() && open.back().depth == depth) {
        device_ranges_.push_back({open.back().start, i, open.back().host});
        open.pop_back();
      }
    }
  }
  if (!open.empty()) device_ranges_.push_back({open.front().start, sig_.size(), open.front().host});
  protect_shims();
}

void Engine::protect_shims() {
  // `#if ... !defined(GPUPORT_...)` up to its #endif, as includes.cc writes a shim.
  for (std::size_t d = 0; d < directives_.size(); ++d) {
    const std::size_t hash = directives_[d];
    if (!is(hash + 1, "if")) continue;
    std::uint32_t shim = 0;
    for (std::size_t k = hash + 2; k < sig_.size() && tok(k).has(lex::kInDirective) && !tok(k).has(lex::kDirectiveHash); ++k)
      if (tok(k).kind == TokenKind::identifier && text(k).starts_with("GPUPORT_")) shim |= shim_for_guard(text(k));
    if (!shim) continue;
    int depth = 0;
    for (std::size_t j = d; j < directives_.size(); ++j) {
      const std::size_t h = directives_[j];
      if (is(h + 1, "if") || is(h + 1, "ifdef") || is(h + 1, "ifndef")) ++depth;
      else if (is(h + 1, "endif") && --depth == 0) {
        mark_dropped(hash, h + 1);
        present_shims_ |= shim;
        shim_blocks_.emplace_back(hash, h + 1);
        break;
      }
    }
  }
}

std::size_t Engine::match(std::size_t open) const {
  // Brackets must nest by kind: in `f(a, b]>)` the `)` does not close `f(`, whatever the count.
  if (!is(open, "(") && !is(open, "[") && !is(open, "{")) return sig_.size();
  std::string closers;  // the closer each open bracket expects, innermost last
  // A bracket in a directive closes in that directive; one in code closes in code, and the
  // directive lines in between (an #ifdef inside a call's arguments) hold none of its brackets.
  const bool in_directive = tok(open).has(lex::kInDirective);
  for (std::size_t i = open; i < sig_.size(); ++i) {
    const auto& k = tok(i);
    if (in_directive && i > open && (!k.has(lex::kInDirective) || k.has(lex::kDirectiveHash))) return sig_.size();
    if (!in_directive && k.has(lex::kInDirective)) continue;
    const auto t = text(i);
    if (t.size() != 1) continue;
    const char c = t[0];
    if (c == '(') closers += ')';
    else if (c == '[') closers += ']';
    else if (c == '{') closers += '}';
    else if (c == ')' || c == ']' || c == '}') {
      if (closers.empty() || closers.back() != c) return sig_.size();
      closers.pop_back();
      if (closers.empty()) return i;
    }
  }
  return sig_.size();
}

// Whether the `<` at `lt` (after a name) opens template arguments that end the call argument:
// `name<a, b>` followed by `,` or the call's `)` (at `close`). A comparison cannot be followed so:
// `a < b, c > d` goes on after its `>`. Stops at what template arguments cannot hold.
bool Engine::ends_argument(std::size_t lt, std::size_t close) const {
  int angles = 1, brackets = 0;
  for (std::size_t i = lt + 1; i < close; ++i) {
    const auto t = text(i);
    if (t == "(" || t == "[") ++brackets;
    else if ((t == ")" || t == "]") && --brackets < 0) return false;
    else if (t == ";" || t == "{" || t == "}" || t == "&&" || t == "||" || t == "<<<" || t == ">>>") return false;
    else if (brackets > 0) continue;
    else if (t == "<") ++angles;
    else if (t == ">" || t == ">>") {
      angles -= t == ">" ? 1 : 2;
      if (angles < 0) return false;
      if (angles == 0) return i + 1 == close || is(i + 1, ",");
    }
  }
  return false;
}

std::optional<CallArguments> Engine::arguments(std::size_t open) const {
  if (!is(open, "(")) return std::nullopt;
  const std::size_t close = match(open);
  if (close >= sig_.size()) return std::nullopt;
  // Arguments that hold preprocessor directives (#if ... #else, an #include) are not one
  // expression each: removing or wrapping one could take a directive with it. (A call inside a
  // macro body is all one directive, and fine.)
  const bool in_directive = tok(open).has(lex::kInDirective);
  for (std::size_t i = open + 1; i < close; ++i)
    if (tok(i).has(lex::kDirectiveHash) || tok(i).has(lex::kInDirective) != in_directive) return std::nullopt;
  CallArguments call;
  call.open = open;
  call.close = close;
  if (close == open + 1) return call;
  std::size_t start = open + 1;
  int depth = 0;
  int angles = 0;  // inside the template arguments of a kernel this file declares as a template
  for (std::size_t i = open + 1; i < close; ++i) {
    const auto t = text(i);
    // A launch configuration's commas do not split the arguments it stands in.
    if (t == "(" || t == "[" || t == "{" || t == "<<<") ++depth;
    else if (t == ")" || t == "]" || t == "}" || t == ">>>") --depth;
    else if (t == "<" && (angles > 0 || (is_identifier(i - 1) && (is_template_kernel(text(i - 1)) || ends_argument(i, close)))))
      ++angles;
    else if (t == ">" && angles > 0) --angles;
    else if (t == ">>" && angles > 0) angles = std::max(0, angles - 2);
    else if (t == "," && depth == 0 && angles == 0) {
      call.args.emplace_back(start, i - 1);
      start = i + 1;
    }
  }
  call.args.emplace_back(start, close - 1);
  return call;
}

void Engine::replace(std::size_t i, std::string text) {
  const auto& t = tok(i);
  replaced_.push_back(t.offset);
  replace_range(t.offset, t.end(), std::move(text));
}

void Engine::replace_range(std::uint32_t begin, std::uint32_t end, std::string text) {
  // No edit loses a comment: those inside the replaced range follow the new text (a line
  // comment with the line break that ends it, when that lies in the range too).
  if (end > begin) {
    const auto& all = tokens_.tokens();
    auto it = std::lower_bound(all.begin(), all.end(), begin,
                               [](const lex::Token& t, std::uint32_t offset) { return t.offset < offset; });
    for (; it != all.end() && it->offset < end; ++it) {
      if (it->kind != TokenKind::line_comment && it->kind != TokenKind::block_comment) continue;
      if (it->end() > end) break;
      text.append(source_data_ + it->offset, it->length);
      if (it->kind == TokenKind::line_comment && it + 1 != all.end() && (it + 1)->kind == TokenKind::newline &&
          (it + 1)->end() <= end)
        text.append(source_data_ + (it + 1)->offset, (it + 1)->length);
    }
  }
  const std::uint32_t group = current_group_ != kNoGroup ? current_group_ : next_group_++;
  edits_.push_back({begin, end, std::move(text), static_cast<std::uint32_t>(edits_.size()), group});
}

void Engine::insert(std::uint32_t offset, std::string text) { replace_range(offset, offset, std::move(text)); }

void Engine::erase_generated(std::uint32_t begin, std::uint32_t end) {
  const std::uint32_t group = current_group_ != kNoGroup ? current_group_ : next_group_++;
  edits_.push_back({begin, end, std::string(), static_cast<std::uint32_t>(edits_.size()), group});
}

bool Engine::edited(std::size_t i) const {
  return std::find(replaced_.begin(), replaced_.end(), tok(i).offset) != replaced_.end();
}

SourceLocation Engine::location(std::uint32_t offset) const {
  if (!lines_) lines_.emplace(tokens_.text());
  auto lc = lines_->locate(offset);
  return {path_, lc.line, lc.column};
}

Diagnostic& Engine::report_at(std::uint32_t offset, Severity severity, std::string code, std::string message,
                              std::string fix) {
  Diagnostic d;
  d.severity = severity;
  d.code = std::move(code);
  d.message = std::move(message);
  d.fix = std::move(fix);
  d.location = location(offset);
  result_.findings.push_back(std::move(d));
  return result_.findings.back();
}

Diagnostic& Engine::report(std::size_t i, Severity severity, std::string code, std::string message, std::string fix) {
  return report_at(tok(i).offset, severity, std::move(code), std::move(message), std::move(fix));
}

Engine::~Engine() {
  sig_.swap(spare_sig);
}

const Engine::DeviceRange* Engine::device_range(std::size_t i) const {
  const std::size_t n = device_ranges_.size();
  // Queries come mostly in increasing order: go on from the last answer, and search afresh
  // only when a query goes back.
  std::size_t c = device_cursor_;
  if (c > n || (c > 0 && device_ranges_[c - 1].last >= i)) {
    c = static_cast<std::size_t>(std::partition_point(device_ranges_.begin(), device_ranges_.end(),
                                                      [&](const DeviceRange& r) { return r.last < i; }) -
                                 device_ranges_.begin());
  }
  while (c < n && device_ranges_[c].last < i) ++c;
  device_cursor_ = c;
  return c < n && device_ranges_[c].first <= i ? &device_ranges_[c] : nullptr;
}

std::string Engine::apply_edits(std::string out, std::string_view line_marker_path) {
  // Sort packed keys rather than the edits themselves (each holds a string): offset, then
  // insertions before a replacement at the same offset, then creation order.
  std::vector<std::uint64_t> keys(edits_.size());
  for (std::uint32_t i = 0; i < keys.size(); ++i) {
    const Edit& e = edits_[i];
    keys[i] = (std::uint64_t{e.begin} << 32) | (std::uint64_t{e.begin != e.end} << 31) | i;
  }
  // The passes each make edits mostly in source order, so the keys form sorted runs: merging
  // neighbouring runs costs far less than sorting from scratch.
  std::vector<std::size_t> runs = {0};
  for (std::size_t i = 1; i < keys.size(); ++i)
    if (keys[i] < keys[i - 1]) runs.push_back(i);
  runs.push_back(keys.size());
  while (runs.size() > 2) {
    std::vector<std::size_t> merged = {0};
    for (std::size_t r = 0; r + 2 < runs.size(); r += 2) {
      std::inplace_merge(keys.begin() + runs[r], keys.begin() + runs[r + 1], keys.begin() + runs[r + 2]);
      merged.push_back(runs[r + 2]);
    }
    if (runs.size() % 2 == 0) merged.push_back(runs.back());
    runs = std::move(merged);
  }
  const std::string_view src = tokens_.text();
  // An edit that overlaps an earlier one is dropped (the earlier wins), and with it the rest
  // of its group: then the text is built again without that group.
  std::vector<std::uint32_t> group_size(next_group_, 0);
  for (const Edit& e : edits_) ++group_size[e.group];
  std::vector<char> rejected(next_group_, 0);
  std::uint32_t pos = 0;
  for (bool again = true; again;) {
    again = false;
    reserve_fresh(out, src.size() + src.size() / 16);
    pos = 0;
    for (auto key : keys) {
      const Edit& e = edits_[key & 0x7fffffffu];
      if (rejected[e.group]) continue;
      if (e.begin < pos) {
        rejected[e.group] = 1;
        if (group_size[e.group] > 1) {
          again = true;
          break;
        }
        continue;
      }
      out.append(src.substr(pos, e.begin - pos));
      out.append(e.text);
      pos = e.end;
      if (!line_marker_path.empty()) {
        const auto added = std::count(e.text.begin(), e.text.end(), '\n') -
                           std::count(src.begin() + e.begin, src.begin() + e.end, '\n');
        const bool whole_lines = !e.text.empty() && e.text.back() == '\n' && (e.begin == 0 || src[e.begin - 1] == '\n');
        if (added != 0 && whole_lines) {
          const auto line = 1 + std::count(src.begin(), src.begin() + e.end, '\n');
          out.append(fmt::format("#line {} \"{}\"\n", line, line_marker_path));
        }
      }
    }
  }
  out.append(src.substr(pos));
  return out;
}

// Findings in source order (stable), sorting positions and moving each finding once.
void sort_by_position(std::vector<Diagnostic>& findings) {
  std::vector<std::uint32_t> order(findings.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    const auto& x = findings[a].location;
    const auto& y = findings[b].location;
    return std::pair(x.line, x.column) < std::pair(y.line, y.column);
  });
  bool sorted = true;
  for (std::uint32_t i = 0; i < order.size() && sorted; ++i) sorted = order[i] == i;
  if (sorted) return;
  std::vector<Diagnostic> out;
  out.reserve(findings.size());
  for (auto i : order) out.push_back(std::move(findings[i]));
  findings = std::move(out);
}

// ---------------------------------------------------------------------------------------------
// Names

bool looks_like_hip_api(std::string_view n) {
  if (n.size() < 4) return false;
  if (n.starts_with("hip") || n.starts_with("HIP")) return true;
  for (std::string_view p : {"rocblas", "rocsparse", "rocrand", "rocsolver", "rocfft", "rocprim", "roctx", "roctracer", "ROCBLAS",
                             "ROCSPARSE", "ROCRAND"})
    if (n.starts_with(p)) return true;
  return false;
}

bool looks_like_cuda_api(std::string_view n) {
  // Every CUDA prefix starts with "cu", "CU" or "nv": reject everything else at once.
  if (n.size() < 3 || !((n[0] == 'c' && n[1] == 'u') || (n[0] == 'C' && n[1] == 'U') || (n[0] == 'n' && n[1] == 'v')))
    return false;
  auto upper_after = [&](std::size_t k) { return n.size() > k && n[k] >= 'A' && n[k] <= 'Z'; };
  auto lower_after = [&](std::size_t k) { return n.size() > k && n[k] >= 'a' && n[k] <= 'z'; };
  if (n.starts_with("cuda")) return upper_after(4);
  for (std::string_view lib : {"cublas", "curand", "cusparse", "cufft", "cusolver", "cudnn", "nvrtc", "nvtx"})
    if (n.starts_with(lib)) return upper_after(lib.size()) || (n.size() > lib.size() && n[lib.size()] == '_');
  if (n.starts_with("cu")) return upper_after(2);
  for (std::string_view macro : {"CUDA_", "CUBLAS_", "CURAND_", "CUSPARSE_", "CUFFT_", "CUSOLVER_", "CUDNN_",
                                 "NVRTC_", "CU_"})
    if (n.starts_with(macro)) return n.size() > macro.size();
  if (n.starts_with("CU")) return lower_after(2);  // CUdevice, CUstream, CUresult
  return false;
}

namespace {

// The note of a curated row is advice for the user; a generated row's note says where the
// mapping came from, which is no fix.
// The note a finding shows as its fix: curated notes are written for the user; generated ones
// say where a mapping came from, except the --roc tables' notes on what is missing (a roc*
// function that takes other arguments, a name rocBLAS lacks), which are advice too.
std::string advice(const maps::ApiEntry& entry) {
  const bool roc = entry.origin.starts_with("roc/");
  // curated/ and a newer HIP's layer's curated/ (hip-5.7/curated/...)
  const bool curated = entry.origin.starts_with("curated/") || (entry.origin.starts_with("hip-") &&
                                                                 entry.origin.find("/curated/") != std::string::npos);
  if (curated || (roc && !entry.origin.starts_with("roc/generated/")) ||
      (roc && entry.status == maps::Status::unsupported))
    return entry.note;
  return std::string();
}

// What an unsupported name has no equivalent in: HIP, or with --roc the roc* library.
std::string_view target_name(const maps::ApiEntry& entry) {
  if (!entry.origin.starts_with("roc/")) return "HIP";
  if (entry.family == "cublas") return "rocBLAS";
  if (entry.family == "cusparse") return "rocSPARSE";
  if (entry.family == "curand") return "rocRAND";
  if (entry.family == "cusolver") return "rocSOLVER";
  return "ROCm";
}

bool is_keyword_before_expression(std::string_view s) {
  static const std::set<std::string_view> kWords = {"return", "case", "throw", "else", "do", "sizeof", "new",
                                                    "delete", "co_return", "co_yield", "co_await", "goto",
                                                    "typename", "using", "operator", "decltype", "alignof"};
  return kWords.count(s) != 0;
}

// Keywords that can stand before a global `::name` (`typedef ::cub::X T;`, `static
// ::cudaStream_t s;`, `return ::cudaGetLastError();`): no qualifier.
bool is_declaration_keyword(std::string_view s) {
  static const std::set<std::string_view> kWords = {
      "typedef", "static", "extern", "inline", "const", "volatile", "constexpr", "consteval", "constinit",
      "thread_local", "mutable", "virtual", "friend", "explicit", "register", "auto", "struct", "class",
      "union", "enum", "public", "private", "protected", "template", "namespace", "__device__", "__host__",
      "__global__", "__shared__", "__constant__", "__managed__", "__forceinline__", "__noinline__"};
  return kWords.count(s) != 0 || is_keyword_before_expression(s);
}

}  // namespace

// What kind of scope a '{' opens, judged from the tokens since the previous ';', '{' or '}'.
IdentifierRewriter::Scope IdentifierRewriter::scope_opened_by(const Engine& e, std::size_t brace) {
  for (std::size_t k = brace; k > 0;) {
    --k;
    if (e.tok(k).has(lex::kInDirective)) continue;
    const auto t = e.text(k);
    if (t == ";" || t == "{" || t == "}" || t == "=" || t == ")") return Scope::block;
    if (t == "namespace") return Scope::user_namespace;
    if (t == "struct" || t == "class" || t == "union" || t == "enum") return Scope::record;
  }
  return Scope::block;
}

IdentifierRewriter::IdentifierRewriter(Engine& engine) : e(engine), map(engine.map()) {}

const maps::ApiEntry* IdentifierRewriter::namespace_entry(std::size_t k) const {
  if (!e.is_identifier(k)) return nullptr;
  if (auto it = aliases.find(e.text(k)); it != aliases.end()) return it->second;
  const auto* n = map.find(e.text(k));
  return n && n->kind == maps::Kind::namespace_ ? n : nullptr;
}

// `unsigned umin(unsigned a, unsigned b) {`: a definition (a body follows the parameter list)
// of a name the tables map as a device or math function (at file scope, in a namespace or as a
// member). Names that follow the CUDA API conventions are not the user's to define and are not
// looked at.
//
// A name reserved to the implementation (`__vsubss4`) defined inside a conditional group is a
// port of the intrinsic for another platform (llama.cpp defines __vsubss4 for its own HIP
// build only): CUDA declares the intrinsic, so under nvcc that definition is never the one
// called, and the calls are translated as CUDA's.
void IdentifierRewriter::find_user_definitions() {
  for (const std::size_t i : e.names_before_paren()) {  // code names followed by '('
    if (i == 0 || e.is_dropped(i)) continue;  // (a shim's definitions are gpuport's, not the user's)
    // A declarator: a type name (or * / &) before it, not a keyword of an expression. (Checked
    // before the table lookup: most `name(` are calls.)
    const auto prev = e.text(i - 1);
    const bool type_before = (e.is_identifier(i - 1) && !is_keyword_before_expression(prev) && !e.tok(i - 1).has(lex::kInDirective)) ||
                             ((prev == "*" || prev == "&") && i >= 2 && e.is_identifier(i - 2));
    if (!type_before) continue;
    const auto* entry = map.find(e.text(i));
    if (!entry || entry->kind != maps::Kind::device || e.looks_like_api(e.text(i))) continue;
    const std::size_t close = e.match(i + 1);
    if (close + 1 >= e.size()) continue;
    std::size_t after = close + 1;
    while (after < e.size() && (e.is(after, "const") || e.is(after, "noexcept"))) ++after;
    if (!e.is(after, "{")) continue;
    if (e.text(i).starts_with("__") && e.conditional_depth(i) > 0) continue;
    user_defined.insert(e.text(i));
    // A definition with a parameter HIP has an overload for (atomicMin(float*, float)): HIP's
    // declaration and the user's collide on AMD.
    const auto params = e.arguments(i + 1);
    if (!params) continue;
    for (const auto& rule : map.call_rules(e.text(i))) {
      if (rule.action != maps::CallAction::hip_overload || rule.index >= static_cast<int>(params->args.size())) continue;
      const auto [first, last] = params->args[static_cast<std::size_t>(rule.index)];
      std::string type;  // the parameter's type: its tokens without the name
      for (std::size_t k = first; k <= last; ++k)
        if (!(k == last && e.is_identifier(k) && k > first)) type += e.text(k);
      std::string want = rule.value;
      std::erase(want, ' ');
      if (type == want || type == "const" + want)
        e.report(i, Severity::error, "redefines-hip-api",
                 fmt::format("HIP declares {}({}, ...) itself: this definition collides with it on AMD", e.text(i), rule.value),
                 rule.note);
    }
  }
}

// `type [const] [*|&|const]... name`, and further declarators after commas, from the type's
// token at k: the names go into `names`.
// `case cudaErrorTextureNotBound:` for an error code HIP does not have (helper_cuda.h's switch
// over every cudaError): HIP never returns it, so the label can never match and goes; the
// statements after it stay, reached as before by the labels above them. A whole line that holds
// only the label goes with it.
bool IdentifierRewriter::drop_unreachable_case(std::size_t i, const maps::ApiEntry& entry) {
  if (entry.kind != maps::Kind::constant || !e.text(i).starts_with("cudaError") || i == 0 || !e.is(i - 1, "case") ||
      !e.is(i + 1, ":") || e.tok(i).has(lex::kInDirective))
    return false;
  std::uint32_t begin = e.tok(i - 1).offset, end = e.tok(i + 1).end();
  const std::string_view s = e.source();
  std::uint32_t line_begin = begin, line_end = end;
  while (line_begin > 0 && (s[line_begin - 1] == ' ' || s[line_begin - 1] == '\t')) --line_begin;
  while (line_end < s.size() && (s[line_end] == ' ' || s[line_end] == '\t')) ++line_end;
  if ((line_begin == 0 || s[line_begin - 1] == '\n') && line_end < s.size() && (s[line_end] == '\n' || s[line_end] == '\r')) {
    begin = line_begin;
    end = line_end + (s[line_end] == '\r' && line_end + 1 < s.size() && s[line_end + 1] == '\n' ? 2 : 1);
  } else {
    end = line_end;
  }
  e.replace_range(begin, end, "");
  ++e.result().rewrites;
  e.report(i, Severity::note, "case-dropped",
           fmt::format("case {}: HIP has no such error code and never returns it, so the label is dropped", e.text(i)));
  return true;
}

void IdentifierRewriter::collect_declarators(std::size_t k, std::unordered_set<std::string_view>& names) const {
  std::size_t j = k + 1;
  // A template's arguments (cg::thread_block_tile<32> warp): skipped, '>>' closing two.
  if (e.is(j, "<")) {
    int depth = 0;
    for (; j < e.size() && j < k + 64; ++j) {
      if (e.is(j, "<")) ++depth;
      else if (e.is(j, ">")) --depth;
      else if (e.is(j, ">>")) depth -= 2;
      else if (e.is(j, ";") || e.is(j, "{") || e.is(j, "}")) return;
      if (depth <= 0) break;
    }
    if (depth != 0) return;
    ++j;
  }
  while (j < e.size()) {
    while (j < e.size() && (e.is(j, "*") || e.is(j, "&") || e.is(j, "const") || e.is(j, "__restrict__"))) ++j;
    if (!e.is_identifier(j)) break;
    names.insert(e.text(j));
    ++j;
    if (e.is(j, "[")) j = e.match(j) + 1;
    if (!e.is(j, ",")) break;
    ++j;
  }
}

const std::unordered_set<std::string_view>& IdentifierRewriter::declared_names(std::string_view type) {
  auto [it, fresh] = declared_with.try_emplace(TypeKey{type.data(), type.size()}, nullptr);
  if (!fresh) return *it->second;
  // The types the tables ask about are all collected on the first question (most files never
  // get one), from the positions of their names that the engine's sweep noted.
  if (!all_declared_scanned) {
    all_declared_scanned = true;
    for (const std::size_t k : e.declared_type_tokens()) collect_declarators(k, declared_by_text[e.text(k)]);
  }
  auto [named, new_text] = declared_by_text.try_emplace(type);
  it->second = &named->second;
  // A type the tables do not list (asked by a caller with its own text): a pass of its own.
  if (new_text && !map.is_declared_type(type))
    for (std::size_t k = 0; k + 1 < e.size(); ++k)
      if (e.tok(k).length == type.size() && e.tok(k).kind == TokenKind::identifier && e.text(k) == type)
        collect_declarators(k, named->second);
  return named->second;
}

// HIP 5.2 has no hipMemoryTypeManaged (the tables mark cudaMemoryTypeManaged unsupported): it
// reports managed memory by hipPointerAttribute_t::isManaged. `attr.type == cudaMemoryTypeManaged`
// (member `type` at i) becomes `attr.isManaged != 0`, `!=` becomes `== 0`.
bool IdentifierRewriter::managed_test_after(std::size_t i) {
  if (!e.is(i, "type") || !(e.is(i + 1, "==") || e.is(i + 1, "!=")) || !e.is(i + 2, "cudaMemoryTypeManaged")) return false;
  const auto* constant = map.find("cudaMemoryTypeManaged");
  if (!constant || constant->status != maps::Status::unsupported || e.tok(i + 2).has(lex::kInDirective)) return false;
  const auto group = e.group();
  e.replace(i, "isManaged");
  e.replace(i + 1, e.is(i + 1, "==") ? "!=" : "==");
  e.replace(i + 2, "0");
  managed_tests.insert(i + 2);
  return true;
}

// `cudaMemoryTypeManaged == attr.type` (the constant at i): `0 != attr.isManaged`; the member
// is renamed when the pass reaches it.
bool IdentifierRewriter::managed_test_before(std::size_t i) {
  if (!(e.is(i + 1, "==") || e.is(i + 1, "!="))) return false;
  std::size_t m = i + 2;
  while (m < e.size() && (e.is_identifier(m) || e.is(m, "[") || e.is(m, "]")) && !e.is(m + 1, ".") && !e.is(m + 1, "->")) {
    if (e.is(m, "[")) m = e.match(m);
    if (m >= e.size()) return false;
    ++m;
  }
  if (m + 2 >= e.size() || !(e.is(m + 1, ".") || e.is(m + 1, "->")) || !e.is(m + 2, "type") || e.is(m + 3, "(")) return false;
  if (!declared_with_struct("cudaPointerAttributes", m)) return false;
  const auto group = e.group();
  e.replace(i, "0");
  e.replace(i + 1, e.is(i + 1, "==") ? "!=" : "==");
  ++e.result().rewrites;
  managed_type_members.insert(m + 2);
  return true;
}

bool IdentifierRewriter::declared_with_struct(std::string_view type, std::size_t object) {
  const auto& names = declared_names(type);
  if (names.empty()) return false;
  const std::size_t o = object_name(object);
  if (!(o < e.size() && e.is_identifier(o) && names.count(e.text(o)) > 0)) return false;
  // The name may also be declared with another type elsewhere (`__half2 v` in one function,
  // `float2 v` in the next): the nearest declaration before the use decides.
  const std::string_view name = e.text(o);
  for (std::size_t k = o; k-- > 1;) {
    if (e.text(k) != name) continue;
    const bool declarator_after = e.is(k + 1, ";") || e.is(k + 1, "=") || e.is(k + 1, ",") || e.is(k + 1, ")") ||
                                  e.is(k + 1, "[") || e.is(k + 1, "{") || e.is(k + 1, "(");
    std::size_t j = k - 1;
    while (j > 0 && (e.is(j, "*") || e.is(j, "&") || e.is(j, "const"))) --j;
    if (!declarator_after || !e.is_identifier(j) || is_keyword_before_expression(e.text(j))) continue;
    // A declaration of `name`: its type is the identifier before the declarator (or the first
    // declarator's, for `T a, name`).
    if (e.is(k - 1, ",")) return true;  // part of a list: the collected set decided
    return e.text(j) == type;
  }
  return true;
}

// The object before '.' / '->' ends at `object`: a name, or a name indexed (props[i]). Returns
// the name's index, size() when there is none.
std::size_t IdentifierRewriter::object_name(std::size_t object) const {
  std::size_t o = object;
  if (e.is(o, "]")) {
    std::size_t depth = 0;
    for (; o > 0; --o) {
      if (e.is(o, "]")) ++depth;
      else if (e.is(o, "[") && --depth == 0) break;
    }
    if (o == 0) return e.size();
    --o;
  }
  return o;
}

// `__CUDA_ARCH__ >= 350` in an #if or #elif: CUDA's device passes compare their architecture
// (the host pass sees 0). gfx1100's device pass is read as sm_61's feature level
// (kDeviceCudaArch), which HIP and gpuport's shims provide for CUDA code; later levels (sm_70's
// independent threads and tensor cores, sm_80's asynchronous copies) they do not. The
// comparison becomes defined(__HIP_DEVICE_COMPILE__) or its negation, as it evaluates in
// each pass (or stays as written when both passes read it alike); one above 610 is a warning to
// review. False when `i` starts no such comparison.
bool rewrite_arch_comparison(Engine& e, std::size_t i) {
  const long level = e.options().cuda_arch;
  // Tested for its truth (`#if __CUDA_ARCH__`, `!__CUDA_ARCH__`, `... && __CUDA_ARCH__`): that of
  // __HIP_DEVICE_COMPILE__, 1 in device passes and undefined (0) in the host pass.
  auto truth_operand = [&](std::size_t k, bool before) {
    if (before) return e.is(k, "if") || e.is(k, "elif") || e.is(k, "&&") || e.is(k, "||") || e.is(k, "!") || e.is(k, "(");
    return k >= e.size() || !e.tok(k).has(lex::kInDirective) || e.tok(k).has(lex::kDirectiveHash) || e.is(k, "&&") ||
           e.is(k, "||") || e.is(k, ")");
  };
  // Like every rewritten condition, it counts as a preprocessor rewrite (no runtime include for
  // it alone) whose HIP macro a HIP header must define first on NVIDIA.
  auto counted = [&] {
    ++e.result().rewrites;
    ++e.pp_rewrites;
    if (!e.first_hip_condition) e.first_hip_condition = e.tok(i).offset;
  };
  if (truth_operand(i - 1, true) && truth_operand(i + 1, false)) {
    e.replace(i, "__HIP_DEVICE_COMPILE__");
    counted();
    return true;
  }
  if (i + 2 >= e.size() || e.tok(i + 2).kind != lex::TokenKind::number || !e.tok(i + 2).has(lex::kInDirective)) return false;
  const std::string_view op = e.text(i + 1), number = e.text(i + 2);
  long n = 0;
  const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), n);
  if (ec != std::errc() || (end != number.data() + number.size() && std::string_view(end, number.data() + number.size()).find_first_not_of("uUlL") != std::string_view::npos))
    return false;
  auto holds = [&](long level) {
    if (op == ">=") return level >= n;
    if (op == ">") return level > n;
    if (op == "<=") return level <= n;
    if (op == "<") return level < n;
    if (op == "==") return level == n;
    return level != n;  // !=
  };
  if (op != ">=" && op != ">" && op != "<=" && op != "<" && op != "==" && op != "!=") return false;
  const bool device = holds(level), host = holds(0);
  // HIP leaves __CUDA_ARCH__ undefined (0 in #if), the host pass's value: a comparison that
  // reads the same in both passes stays as written.
  if (device != host) {
    e.replace_range(e.tok(i).offset, e.tok(i + 2).end(), device ? "defined(__HIP_DEVICE_COMPILE__)" : "!defined(__HIP_DEVICE_COMPILE__)");
    counted();
  }
  // What sm_70 and later add, gpuport does not provide (kDeviceCudaArch): a test for it is to be
  // reviewed, whether gfx1100's level skips the code behind it or a build for sm_70+ takes it.
  const bool later_feature = n >= kDeviceCudaArch + 90 && (op == ">=" || op == ">" || op == "==");
  e.report(i, later_feature ? Severity::warning : Severity::note, "cuda-arch-value",
           fmt::format("__CUDA_ARCH__ {} {}: {} for gfx1100's device code, which gpuport reads as sm_{}'s features "
                       "(the host pass, as with CUDA, sees 0)",
                       op, number, device ? "true" : "false", level / 10),
           !later_feature ? ""
           : device       ? "the code behind it is for sm_70 and later, which the build names: gfx1100 runs it without "
                            "independent thread scheduling, and its tensor-core and asynchronous-copy PTX is reported where used"
                          : "the code behind it uses what sm_70 and later add (independent thread scheduling, tensor cores, "
                            "asynchronous copies): port that branch to HIP by hand if gfx1100 should take it");
  return true;
}

void IdentifierRewriter::run() {
  find_user_definitions();
  for (std::size_t i = 0; i < e.size(); ++i) {
    const auto& t = e.tok(i);
    if (t.kind == TokenKind::punctuator && t.length == 1 && !t.has(lex::kInDirective)) {
      const char c = e.text(i)[0];
      if (c == '{') scopes.push_back(scope_opened_by(e, i));
      else if (c == '}' && !scopes.empty()) scopes.pop_back();
      continue;
    }
    if (t.has(lex::kDirectiveHash)) {
      directive.name = e.is_identifier(i + 1) && e.tok(i + 1).has(lex::kInDirective) ? e.text(i + 1) : "";
      directive.hash = i;
      continue;
    }
    const bool in_directive = t.has(lex::kInDirective);
    if (!in_directive) directive.name = {};
    if (t.kind != TokenKind::identifier) continue;
    const std::string_view name = e.text(i);
    if (in_directive && i == directive.hash + 1) continue;  // the directive's own name

    // The name a #define introduces is the user's, whatever its spelling -- except a CUDA
    // configuration switch (#define __CUDA_NO_HALF_OPERATORS__), which must keep working.
    if (in_directive && (directive.name == "define" || directive.name == "undef") && i == directive.hash + 2) {
      const auto* sw = map.find(name);
      if (sw && (sw->kind == maps::Kind::pp_condition || sw->kind == maps::Kind::macro) &&
          sw->status != maps::Status::unsupported && sw->hip != name) {
        e.replace(i, sw->hip);
        ++e.result().rewrites;
        ++e.pp_rewrites;
      } else if (e.looks_like_api(name)) {
        declared.emplace(name);
      }
      continue;
    }

    if (e.is_dropped(i)) continue;
    const maps::ApiEntry* entry = map.find(name);
    if (entry != nullptr && e.options().to_cuda && entry->family == "driver" && !t.has(lex::kInDisabledGroup) &&
        (entry->hip.starts_with("cu") || entry->hip.starts_with("CU")))
      e.uses_driver_api = true;
    if (entry && !user_defined.empty() && user_defined.count(name)) continue;
    // The neighbours that count are those of the same line kind: code, or this directive (a
    // macro body ending in `.` says nothing about the name on the next line).
    auto same_line = [&](std::size_t k) {
      if (k >= e.size()) return false;
      const auto& o = e.tok(k);
      if (o.has(lex::kInDirective) != in_directive) return false;
      if (!in_directive) return true;
      return k > directive.hash && !o.has(lex::kDirectiveHash);
    };
    const std::string_view prev = i > 0 && same_line(i - 1) ? e.text(i - 1) : std::string_view();
    const std::string_view next = same_line(i + 1) ? e.text(i + 1) : std::string_view();

    if (Engine::equals(prev, "namespace") && Engine::equals(next, "=") && namespace_entry(i + 2)) aliases[name] = namespace_entry(i + 2);
    // Nested namespaces keyed by qualified name: thrust::cuda::par -> thrust::hip::par.
    if (Engine::equals(next, "::") && e.is_identifier(i + 2) && !Engine::equals(prev, "::") && !Engine::equals(prev, ".") && !Engine::equals(prev, "->") &&
        map.is_qualifier(name)) {
      const std::string qualified = fmt::format("{}::{}", name, e.text(i + 2));
      if (const auto* q = map.find(qualified); q && q->kind == maps::Kind::namespace_) {
        if (q->status == maps::Status::unsupported) {
          e.report(i, Severity::error, "unsupported-api", fmt::format("'{}' ({}) has no {} equivalent", qualified, q->family, target_name(*q)),
                   advice(*q));
        } else if (q->hip != qualified) {
          e.replace_range(t.offset, e.tok(i + 2).end(), q->hip);
          ++e.result().rewrites;
        }
        i += 2;
        continue;
      }
    }

    if (entry == nullptr) {
      if (!e.options().to_cuda && !t.has(lex::kInDisabledGroup) && !in_directive)
        e.needed_shims |= shim_for_library_name(name);
      if (!e.looks_like_api(name)) continue;
      if (e.options().to_cuda && handled_by_reverse_passes(name)) continue;
      if (Engine::equals(prev, ".") || Engine::equals(prev, "->") || Engine::equals(prev, "::")) continue;
      // A declaration of the user's own: `void cudaCheck(`, `cudaError_t cudaStatus =`.
      const bool after_type = i > 0 && ((same_line(i - 1) && e.is_identifier(i - 1) && !is_keyword_before_expression(prev)) || Engine::equals(prev, ">"));
      if (after_type && (Engine::equals(next, "(") || Engine::equals(next, "=") || Engine::equals(next, ";") || Engine::equals(next, ",") || Engine::equals(next, "[") || Engine::equals(next, "{") ||
                         Engine::equals(next, ")"))) {
        declared.emplace(name);
        continue;
      }
      if (Engine::equals(prev, "struct") || Engine::equals(prev, "class") || Engine::equals(prev, "enum") || Engine::equals(prev, "union") || Engine::equals(prev, "namespace")) {
        declared.emplace(name);
        continue;
      }
      if (t.has(lex::kInDisabledGroup)) continue;
      const auto where = e.location(t.offset);
      e.result().unknown_uses.push_back({std::string(name), where.line, where.column});
      continue;
    }

    if (name == "cudaMemoryTypeManaged" && !in_directive) {
      if (managed_tests.count(i)) continue;  // rewritten with the member before it
      if (entry->status == maps::Status::unsupported && managed_test_before(i)) continue;
    }
    // `dim3 d = make_uint3(x, y, z)`: CUDA's dim3 converts from uint3, HIP's has only the
    // (x, y, z) constructor, so the initializer becomes dim3(x, y, z).
    if (name == "make_uint3" && Engine::equals(prev, "=") && Engine::equals(next, "(") && i >= 2 &&
        declared_with_struct("dim3", i - 2) && !t.has(lex::kInDisabledGroup)) {
      e.replace(i, "dim3");
      ++e.result().rewrites;
      e.report(i, Severity::note, "dim3-from-uint3", "HIP's dim3 has no uint3 constructor: make_uint3(...) becomes dim3(...)");
      continue;
    }
    if (entry->kind == maps::Kind::member) {
      // prop.asyncEngineCount: only as a member of an object declared with the struct's type
      // (the family; several spellings separated by '|': __half2|half2).
      const bool member_access = Engine::equals(prev, ".") || Engine::equals(prev, "->");
      if (!member_access || i < 2 || t.has(lex::kInDisabledGroup)) continue;
      // (declared_with_struct answers from a per-file cache, at once for a struct the file never
      // declares anything with: x and y are members of everything.)
      const auto type = maps::first_alternative(entry->family, [&](std::string_view t) { return declared_with_struct(t, i - 2); });
      if (type.empty()) continue;
      if (entry->status == maps::Status::unsupported) {
        e.report(i, Severity::error, "unsupported-member",
                 fmt::format("{} member '{}' has no HIP counterpart", type, name), advice(*entry));
      } else if (const auto hole = entry->hip.find('$'); hole != std::string::npos) {
        // The member access itself is wrapped: `h.x` -> `reinterpret_cast<half&>(h.x)`, unless
        // it already is (the text before the object ends as the template's part before $).
        const std::size_t object = object_name(i - 2);
        const std::string_view before = std::string_view(entry->hip).substr(0, hole);
        std::string written;
        for (std::size_t k = object; k > 0 && written.size() < before.size();) {
          --k;
          written.insert(0, e.text(k));
        }
        std::string compact(before);
        std::erase(compact, ' ');
        if (written.ends_with(compact)) continue;
        const auto group = e.group();
        e.insert(e.tok(object).offset, std::string(before));
        e.insert(t.end(), entry->hip.substr(hole + 1));
        ++e.result().rewrites;
      } else if (managed_type_members.count(i)) {
        // `cudaMemoryTypeManaged == attr.type` on HIP 5.2, which has no managed memory type and
        // reports managed memory by isManaged: the comparison became a test of that field.
        e.replace(i, "isManaged");
        ++e.result().rewrites;
      } else if (managed_test_after(i)) {
        ++e.result().rewrites;
      } else if (entry->hip != name) {
        e.replace(i, entry->hip);
        ++e.result().rewrites;
      }
      continue;
    }
    // Member access and names qualified by a user's namespace are not the API.
    if (Engine::equals(prev, ".") || Engine::equals(prev, "->") || Engine::equals(prev, ".*") || Engine::equals(prev, "->*")) continue;
    // A declaration directly inside a struct or a user's namespace: `int (*cudaMalloc)(...);`,
    // `namespace mylib { int cudaMalloc(void**, size_t); }`.
    if (!scopes.empty() && scopes.back() != Scope::block && !in_directive) {
      const bool declarator_before = (same_line(i - 1) && e.is_identifier(i - 1) && !is_keyword_before_expression(prev)) ||
                                     Engine::equals(prev, "*") || Engine::equals(prev, "&") || Engine::equals(prev, "&&") || Engine::equals(prev, ">");
      const bool declarator_after = Engine::equals(next, "(") || Engine::equals(next, ")") || Engine::equals(next, ";") || Engine::equals(next, "=") || Engine::equals(next, "[") ||
                                    Engine::equals(next, ",") || Engine::equals(next, "{");
      if (declarator_before && declarator_after) {
        declared.emplace(name);
        continue;
      }
    }
    if (Engine::equals(prev, "::") && i >= 2 && same_line(i - 2) && ((e.is_identifier(i - 2) && !is_declaration_keyword(e.text(i - 2))) || e.is(i - 2, ">"))) {
      // ns::name or Type<T>::name: the API only when ns is a namespace of the tables
      // (cooperative_groups::this_cluster, cg::this_grid), and then only its own family.
      const auto* ns = namespace_entry(i - 2);
      if (!ns || entry->family != ns->family || entry->kind == maps::Kind::namespace_) continue;
    }

    switch (entry->kind) {
      case maps::Kind::header: continue;
      case maps::Kind::namespace_: {
        const bool as_namespace = Engine::equals(next, "::") || Engine::equals(prev, "namespace") ||
                                  (Engine::equals(prev, "=") && i >= 3 && e.is(i - 3, "namespace"));
        if (!as_namespace) continue;
        break;
      }
      case maps::Kind::pp_condition: {
        const bool tested = in_directive && ((i == directive.hash + 2 && (directive.name == "ifdef" ||
                                                                          directive.name == "ifndef" ||
                                                                          directive.name == "elifdef" ||
                                                                          directive.name == "elifndef")) ||
                                             Engine::equals(prev, "defined") || (Engine::equals(prev, "(") && i >= 2 && e.is(i - 2, "defined")));
        if (!tested) {
          const bool defined_name = (directive.name == "define" || directive.name == "undef") && i == directive.hash + 2;
          if (name == "__CUDA_ARCH__" && in_directive && !defined_name &&
              (directive.name == "define" || !rewrite_arch_comparison(e, i))) {
            // For its value where no comparison with a number decides it here (a macro's body,
            // `__CUDA_ARCH__ >= CC_PASCAL`): gpuport's GPUPORT_CUDA_ARCH, the translation's level in
            // gfx1100's device passes and 0 in the host pass.
            static const std::uint32_t arch_shim = shim_for_guard("GPUPORT_CUDA_ARCH");
            e.replace(i, "GPUPORT_CUDA_ARCH");
            e.needed_shims |= arch_shim;
            ++e.result().rewrites;
            e.report(i, Severity::note, "cuda-arch-value",
                     fmt::format("__CUDA_ARCH__ for its value: GPUPORT_CUDA_ARCH, {} in gfx1100's device passes (sm_{}'s features) "
                                 "and 0 in the host pass",
                                 e.options().cuda_arch, e.options().cuda_arch / 10));
            continue;
          }
          if (in_directive && directive.name == "define") continue;
          if (name == "__CUDA_ARCH__" && in_directive) continue;  // decided by rewrite_arch_comparison above
          if (name == "__CUDA_ARCH__" && !in_directive) {
            // In code it is only ever compiled in a device pass (nvcc's host pass would not know
            // the name): gfx1100's device code, read at the translation's level.
            e.replace(i, std::to_string(e.options().cuda_arch));
            ++e.result().rewrites;
            e.report(i, Severity::note, "cuda-arch-value",
                     fmt::format("__CUDA_ARCH__ in device code: {}, gfx1100 read as sm_{}'s features ({})", e.options().cuda_arch,
                                 e.options().cuda_arch / 10,
                                 e.options().cuda_arch == kDeviceCudaArch ? "what HIP and gpuport's shims provide for CUDA code"
                                                                          : "the architecture the build names"));
            continue;
          }
          e.report(i, Severity::warning, "cuda-macro-value",
                   fmt::format("'{}' is used for its value; HIP has no equivalent value", name),
                   entry->note.empty() ? fmt::format("test it with defined({}) or use {}", entry->hip, entry->hip)
                                       : entry->note);
          continue;
        }
        break;
      }
      default: break;
    }

    if (entry->status == maps::Status::unsupported) {
      if (t.has(lex::kInDisabledGroup)) continue;
      if (drop_unreachable_case(i, *entry)) continue;
      e.report(i, Severity::error, "unsupported-api",
               fmt::format("'{}' ({}) has no {} equivalent", name, entry->family, target_name(*entry)), advice(*entry));
      continue;
    }
    if (entry->status == maps::Status::deprecated) {
      e.report(i, Severity::warning, "deprecated-api", fmt::format("'{}' is deprecated in CUDA", name),
               advice(*entry).empty() ? fmt::format("translated to '{}'", entry->hip) : advice(*entry));
    }
    // `surf2Dread<T>(surf, x, y)`: CUDA's value-returning form, told by its template argument;
    // HIP has only the form that stores through a pointer, so a shim returns the value.
    if (Engine::equals(next, "<") && entry->kind == maps::Kind::device) {
      if (const auto form = value_surface_read(name); !form.empty()) {
        e.replace(i, std::string(form));
        ++e.result().rewrites;
        e.needed_shims |= shim_for_call(form);
        continue;
      }
    }
    // CUDART_VERSION; cudaMemcpy3DPeerParms.
    if (entry->kind == maps::Kind::constant || entry->kind == maps::Kind::type) e.needed_shims |= shim_for_call(entry->hip);
    if (Engine::equals(next, "(")) {
      // atomicMin/atomicMax on long long (HIP 5.2 lacks those): only where the file has the type.
      static const std::uint32_t minmax_ll = shim_for_guard("GPUPORT_AMD_ATOMIC_MINMAX_LL");
      const std::uint32_t shim = shim_for_call(entry->hip);
      if (shim == minmax_ll && !has_long_long) has_long_long = e.source().find("long long") != std::string_view::npos;
      if (shim != minmax_ll || *has_long_long) e.needed_shims |= shim;
    }
    if (entry->kind == maps::Kind::function || entry->kind == maps::Kind::device || entry->kind == maps::Kind::macro) {
      if (Engine::equals(next, "(") && !e.map().call_rules(name).empty()) {
        apply_call_rules(e, i, entry, [this](std::string_view type, std::size_t object) {
          return declared_with_struct(type, object);
        });
        continue;
      }
    }
    if (entry->hip.empty()) {
      // A name with nothing to stand for in HIP (CUDART_CB, a calling convention that is empty
      // on Linux and that HIP's callback types do without): removed with the space after it.
      const auto& stream = e.stream();
      const std::size_t k = e.token_index(i) + 1;
      const std::uint32_t end =
          k < stream.size() && stream[k].kind == TokenKind::whitespace && !in_directive ? stream[k].end() : t.end();
      e.replace_range(t.offset, end, "");
      ++e.result().rewrites;
      continue;
    }
    if (entry->hip != name) {
      // `struct cudaExtent` -> `hipExtent`: HIP's NVIDIA platform declares many of these as
      // typedefs, which an elaborated specifier cannot name.
      const auto name_and_keyword = e.group();
      // Not when a '{' opens later in the same statement: the keyword is what makes that brace a
      // record's (scope_opened_by), and dropping it would change how a second translation reads
      // the names inside.
      auto brace_follows = [&] {
        for (std::size_t k = i + 1; k < e.size() && k < i + 64; ++k) {
          if (e.tok(k).has(lex::kInDirective) != in_directive) return false;
          const auto w = e.text(k);
          if (w == "{") return true;
          if (w == ";" || w == "}" || w == "=" || w == ")") return false;
        }
        return false;
      };
      if (entry->kind == maps::Kind::type && (Engine::equals(prev, "struct") || Engine::equals(prev, "enum")) && !Engine::equals(next, "{") && i > 0 &&
          !e.edited(i - 1) && !brace_follows()) {
        const auto& kw = e.tok(i - 1);
        e.replace_range(kw.offset, t.offset, "");
      }
      // A HIP name that would not keep CUDA's meaning (CUdeviceptr arithmetic on hipDeviceptr_t,
      // a void*; the compute capability hipGetDeviceProperties reports) becomes the shim's.
      std::string_view target = entry->hip;
      if ((entry->kind == maps::Kind::type || entry->kind == maps::Kind::function) && !e.options().to_cuda &&
          !e.options().hipify_style)
        if (const auto shim_name = shim_name_for(target); !shim_name.empty()) {
          target = shim_name;
          e.needed_shims |= shim_for_call(shim_name);
        }
      e.replace(i, std::string(target));
      ++e.result().rewrites;
      if (entry->kind == maps::Kind::pp_condition) {
        ++e.pp_rewrites;
        if (in_directive && entry->hip.starts_with("__HIP") && !e.first_hip_condition) e.first_hip_condition = t.offset;
      }
    }
  }
  for (auto& n : declared) e.result().declared_names.push_back(n);
}

// hipify-clang also renames CUDA API names inside string literals (an error message that
// names the call: "cudaSetDevice failed" -> "hipSetDevice failed"); --hipify-style does the
// same, for whole words that follow the CUDA naming conventions and have a HIP name.
void rewrite_string_literals(Engine& e) {
  for (std::size_t i = 0; i < e.size(); ++i) {
    const auto& t = e.tok(i);
    if (t.kind != TokenKind::string_literal || e.is_dropped(i) || t.has(lex::kInDisabledGroup)) continue;
    const std::string_view text = e.text(i);
    std::string out;
    std::size_t copied = 0;
    for (std::size_t k = 0; k < text.size();) {
      if (!lex::is_identifier_start(static_cast<unsigned char>(text[k])) || (k > 0 && lex::is_identifier_char(static_cast<unsigned char>(text[k - 1])))) {
        ++k;
        continue;
      }
      std::size_t end = k;
      while (end < text.size() && lex::is_identifier_char(static_cast<unsigned char>(text[end]))) ++end;
      const std::string_view word = text.substr(k, end - k);
      const auto* entry = looks_like_cuda_api(word) ? e.map().find(word) : nullptr;
      if (entry && entry->status != maps::Status::unsupported && entry->kind != maps::Kind::header &&
          entry->kind != maps::Kind::namespace_ && entry->hip != word && !entry->hip.empty()) {
        out.append(text.substr(copied, k - copied));
        out.append(entry->hip);
        copied = end;
      }
      k = end;
    }
    if (copied == 0) continue;
    out.append(text.substr(copied));
    e.replace(i, std::move(out));
    ++e.result().rewrites;
  }
}

// Identifiers first, then hazards (which must see the arguments the call rules dropped).
void rewrite_and_scan(Engine& e) {
  if (e.options().to_cuda) {
    // HIP -> CUDA: the launches and macros first (their edits leave every argument's tokens to
    // the identifier pass), then the names; the hazards are the 64-lane ones.
    remove_shims(e);
    rewrite_hip_launches(e);
    rewrite_hip_macros(e);
    IdentifierRewriter(e).run();
    add_driver_include(e);
    find_wave64_hazards(e);
    return;
  }
  IdentifierRewriter(e).run();
  if (e.options().hipify_style) rewrite_string_literals(e);
  else move_unmatched_definitions(e);
  find_hazards(e);
}

FileTranslation translate_text(std::string_view path, std::string_view text, const maps::ApiMap& map,
                               const TranslateOptions& options) {
  FileTranslation result;
  result.path = std::string(path);
  result.to_cuda = options.to_cuda;
  auto reject = [&](std::uint32_t offset, std::string code, std::string message) {
    Diagnostic d;
    d.code = std::move(code);
    d.message = std::move(message);
    LineIndex lines(text.substr(0, offset));
    auto lc = lines.locate(offset);
    d.location = {std::string(path), lc.line, lc.column};
    result.findings.push_back(std::move(d));
    result.ok = false;
  };
  const TextCheck check = check_text(text);
  if (check.problem == TextProblem::nul_byte) {
    reject(check.offset, "binary-file", "file contains a NUL byte: binary data, not source text");
    return result;
  }
  if (check.problem == TextProblem::invalid_utf8) {
    // Real code holds such bytes (a name in a Latin-1 comment): they pass through as they are,
    // like every byte the translation does not rewrite, and the file is translated.
    Diagnostic d;
    d.severity = Severity::warning;
    d.code = "invalid-utf8";
    d.message = fmt::format("byte 0x{:02X} is not UTF-8 (an 8-bit encoding such as Latin-1?): the file's bytes are kept as they are",
                            static_cast<unsigned char>(text[check.offset]));
    const auto lc = LineIndex(text.substr(0, check.offset)).locate(check.offset);
    d.location = {std::string(path), lc.line, lc.column};
    result.findings.push_back(std::move(d));
  }
  if (text.size() > UINT32_MAX - 1) {
    reject(0, "file-too-large", "file is 4 GiB or larger");
    return result;
  }

  // Token storage is reused across the files a thread translates.
  thread_local std::vector<lex::Token> spare_tokens;
  lex::TokenStream tokens = lex::lex(text, std::move(spare_tokens));
  struct GiveBack {
    lex::TokenStream& tokens;
    ~GiveBack() { spare_tokens = std::move(tokens).take_tokens(); }
  } give_back{tokens};
  if (!tokens.problems().empty()) {
    LineIndex lines(text);
    for (const auto& p : tokens.problems()) {
      Diagnostic d;
      d.severity = p.severity;
      d.code = p.code;
      d.message = p.message;
      auto lc = lines.locate(p.offset);
      d.location = {std::string(path), lc.line, lc.column};
      if (p.severity == Severity::error) result.ok = false;
      result.findings.push_back(std::move(d));
    }
    if (!result.ok) return result;
  }

  Engine engine(path, tokens, map, options, result);
  rewrite_includes(engine);
  const std::size_t include_rewrites = result.rewrites;
  rewrite_and_scan(engine);
  if (!options.to_cuda) {
    join_spaced_launches(engine);
    if (!options.hipify_style) declare_undeclared_template_kernels(engine);
    place_runtime_include(engine, include_rewrites);
    if (options.launch_style == LaunchStyle::hip_launch_kernel_ggl) rewrite_launches(engine);
  }
  result.output = engine.apply_edits(std::move(spare_output), options.line_markers ? path : std::string_view());
  sort_by_position(result.findings);
  return result;
}

void resolve_unknown_apis(std::vector<FileTranslation*> files) {
  std::unordered_set<std::string_view> declared;
  for (auto* f : files)
    for (const auto& n : f->declared_names) declared.insert(n);
  for (auto* f : files) {
    if (f->unknown_uses.empty()) continue;
    for (auto& use : f->unknown_uses) {
      if (declared.count(use.name)) continue;
      Diagnostic d;
      d.severity = Severity::warning;
      d.code = "unknown-api";
      d.message = f->to_cuda ? fmt::format("'{}' looks like a HIP API name but has no CUDA counterpart in the mapping tables; left "
                                           "unchanged",
                                           use.name)
                             : fmt::format("'{}' looks like a CUDA API name but is not in the mapping tables; left unchanged", use.name);
      d.location = {f->path, use.line, use.column};
      f->findings.push_back(std::move(d));
    }
    f->unknown_uses.clear();
    sort_by_position(f->findings);
  }
}

}  // namespace gpuport::source
