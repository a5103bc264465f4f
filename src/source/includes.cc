// Include rewriting: CUDA header paths become HIP paths, the HIP runtime header appears once
// (where the CUDA runtime include was, or after the include guard / #pragma once), and
// headers without a HIP counterpart are reported.
#include <algorithm>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "source/compat.h"
#include "source/conditionals.h"
#include "source/engine.h"

namespace gpuport::source {
namespace {

constexpr std::string_view kRuntime = "hip/hip_runtime.h";
constexpr std::string_view kRuntimeApi = "hip/hip_runtime_api.h";

// The sig index of the `#` of a leading include guard's `#ifndef X` (the file's first
// directive, before any code, whose #endif closes the file and which `#define X` follows
// inside), if the file has one.
std::optional<std::size_t> include_guard_ifndef(const Engine& e) {
  const auto& dirs = e.directives();
  if (dirs.empty() || dirs.front() != 0 || !e.is(1, "ifndef") || !e.is_identifier(2)) return std::nullopt;
  const auto guard = e.text(2);
  int depth = 0;
  bool defined = false;
  for (std::size_t n = 0; n < dirs.size(); ++n) {
    const std::size_t i = dirs[n];
    if (i + 1 >= e.size()) break;
    const auto name = e.text(i + 1);
    if (name == "if" || name == "ifdef" || name == "ifndef") ++depth;
    else if (name == "define" && depth == 1 && i + 2 < e.size() && e.text(i + 2) == guard) defined = true;
    else if (name == "endif" && --depth == 0) {
      // The guard's #endif: nothing but the rest of its line may follow.
      std::size_t k = i + 2;
      while (k < e.size() && e.tok(k).has(lex::kInDirective)) ++k;
      return defined && k == e.size() ? std::optional<std::size_t>(0) : std::nullopt;
    }
  }
  return std::nullopt;
}

std::vector<Include> scan_includes(const Engine& e) {
  std::vector<Include> out;
  // Bracket depth of the code before each directive, advanced alongside them, and the braces
  // open there (each with its `extern` when it opens an `extern "C"` block).
  int brackets = 0;
  std::vector<std::optional<std::size_t>> braces;
  std::size_t scanned = 0;
  for (std::size_t i : e.directives()) {
    for (; scanned < i; ++scanned) {
      const auto& tk = e.tok(scanned);
      if (tk.kind != lex::TokenKind::punctuator || tk.has(lex::kInDirective)) continue;
      const auto t = e.text(scanned);
      if (t == "(" || t == "[" || t == "<<<") ++brackets;
      else if ((t == ")" || t == "]" || t == ">>>") && brackets > 0) --brackets;
      else if (t == "{")
        braces.push_back(scanned >= 2 && e.is(scanned - 1, "\"C\"") && e.is(scanned - 2, "extern") ? std::optional(scanned - 2)
                                                                                                  : std::nullopt);
      else if (t == "}" && !braces.empty()) braces.pop_back();
    }
    if (i + 1 >= e.size()) continue;
    const auto name = e.text(i + 1);
    if (name != "include" && name != "include_next" && name != "import") continue;
    if (i + 2 >= e.size() || e.tok(i + 2).kind != lex::TokenKind::header_name) continue;
    const auto h = e.text(i + 2);
    if (h.size() < 2) continue;
    std::optional<std::size_t> extern_c;
    for (const auto& b : braces)
      if (b) extern_c = b;
    out.push_back({i, i + 2, h.substr(1, h.size() - 2), h.front() == '<', e.conditional_depth(i), brackets > 0, extern_c});
  }
  return out;
}

// The directives do not change while edits are collected: scanned once per file.
const std::vector<Include>& find_includes(const Engine& e) {
  if (!e.include_cache) e.include_cache = scan_includes(e);
  return *e.include_cache;
}

// The file's line ending: that of its first line.
std::string_view line_end(const Engine& e) {
  for (const auto& t : e.stream().tokens())
    if (t.kind == lex::TokenKind::newline) return t.length == 2 ? "\r\n" : "\n";
  return "\n";
}

// The byte range of the whole line holding the directive that starts at sig index `hash`,
// including its newline.
std::pair<std::uint32_t, std::uint32_t> directive_line(const Engine& e, std::size_t hash) {
  const auto& tokens = e.stream();
  std::size_t first = e.token_index(hash);
  while (first > 0 && tokens[first - 1].kind == lex::TokenKind::whitespace) --first;
  std::size_t last = e.token_index(hash);
  while (last + 1 < tokens.size() && tokens[last].kind != lex::TokenKind::newline) ++last;
  return {tokens[first].offset, tokens[last].end()};
}

// The offset of the start of the line that sig token `i` is on.
std::uint32_t directive_line_start(const Engine& e, std::size_t i) {
  const std::uint32_t at = e.tok(i).offset;
  const std::size_t nl = e.source().rfind('\n', at == 0 ? 0 : at - 1);
  return nl == std::string_view::npos || at == 0 ? 0 : static_cast<std::uint32_t>(nl + 1);
}

bool looks_like_cuda_header(std::string_view path) {
  for (std::string_view p : {"cuda", "cublas", "curand", "cusparse", "cufft", "cusolver", "cudnn", "nvrtc",
                             "nvToolsExt", "cub/", "cooperative_groups", "sm_", "nvtx3/", "crt/", "nccl"})
    if (path.starts_with(p)) return true;
  return false;
}

std::string replace_path(std::string_view token, std::string_view path) {
  return fmt::format("{}{}{}", token.front(), path, token.back());
}

// The spelling of a HIP library header. ROCm 5.7 moved hipBLAS, hipSPARSE, hipSOLVER and
// hipBLASLt into folders (rocBLAS and rocSPARSE had moved in ROCm 5.2) (<hipblas/hipblas.h>; ROCm 6 dropped the flat wrappers), which is what
// gpuport writes; hipify-clang still writes the flat names, which --hipify-style follows. This
// is how HIP spells its own headers, not a CUDA -> HIP mapping.
std::string_view header_spelling(std::string_view hip, bool hipify_style) {
  if (!hipify_style) return hip;
  for (std::string_view lib : {"hipblas", "hipsparse", "hipsolver", "hipblaslt", "rocblas", "rocsparse"}) {
    if (hip.size() == 2 * lib.size() + 3 && hip.starts_with(lib) && hip[lib.size()] == '/' &&
        hip.substr(lib.size() + 1).starts_with(lib) && hip.ends_with(".h"))
      return hip.substr(lib.size() + 1);
  }
  return hip;
}


// A duplicate include may go only when its line is nothing but the include and it stands
// between statements or directives: then removing it changes no neighbourhood that a later
// translation of the output would read differently (a launch's name on the line before, text
// after the header name).
bool removable_line(const Engine& e, const Include& inc) {
  if (inc.header + 1 < e.size() && e.tok(inc.header + 1).has(lex::kInDirective) &&
      !e.tok(inc.header + 1).has(lex::kDirectiveHash))
    return false;
  if (inc.hash == 0) return true;
  const std::size_t before = inc.hash - 1;
  if (e.tok(before).has(lex::kInDirective)) return true;
  return e.is(before, ";") || e.is(before, "{") || e.is(before, "}");
}

}  // namespace

// The directives do not change while edits are collected: the nesting is found once per file.
// An include guard's #ifndef is no condition: what it encloses is unconditional.
int Engine::conditional_depth(std::size_t i) const {
  if (!nesting_cache) {
    auto& nesting = nesting_cache.emplace();
    const int guard = include_guard_ifndef(*this) ? 1 : 0;
    int depth = 0;  // a stray #endif does not take it below 0
    for (const std::size_t h : directives()) {
      if (h + 1 >= size()) continue;
      const auto name = text(h + 1);
      if (name == "if" || name == "ifdef" || name == "ifndef") ++depth;
      else if (name == "endif" && depth > 0) --depth;
      else continue;
      nesting.emplace_back(h, std::max(0, depth - guard));
    }
  }
  const auto& nesting = *nesting_cache;
  const auto it = std::upper_bound(nesting.begin(), nesting.end(), i, [](std::size_t k, const auto& p) { return k < p.first; });
  return it == nesting.begin() ? 0 : std::prev(it)->second;
}

void rewrite_includes(Engine& e) {
  bool runtime_seen = false;
  // HIP paths already included unconditionally: several CUDA headers map to one HIP header
  // (<cub/block/block_reduce.cuh>, <cub/device/device_scan.cuh> -> <hipcub/hipcub.hpp>).
  std::set<std::string, std::less<>> included;
  for (const auto& inc : find_includes(e))
    if (inc.depth == 0 && !e.map().find_header(inc.path)) included.emplace(inc.path);
  std::optional<std::vector<bool>> excluded_storage;  // evaluated at the first unsupported header
  auto excluded = [&](std::size_t i) {
    if (!excluded_storage) excluded_storage = excluded_tokens(e.stream(), e.options().preprocessor);
    const std::size_t index = e.token_index(i);
    return index < excluded_storage->size() && (*excluded_storage)[index];
  };
  for (const auto& inc : find_includes(e)) {
    if (e.tok(inc.hash).has(lex::kInDisabledGroup) && !e.map().find_header(inc.path)) continue;
    if (inc.path == kRuntime && !e.options().to_cuda) {
      runtime_seen = true;
      continue;
    }
    const maps::ApiEntry* entry = e.map().find_header(inc.path);
    if (entry == nullptr) {
      if (inc.angled && !e.options().to_cuda && looks_like_cuda_header(inc.path))
        e.report(inc.header, Severity::warning, "unknown-header",
                 fmt::format("<{}> looks like a CUDA header but is not in the mapping tables; left unchanged", inc.path));
      if (inc.angled && e.options().to_cuda && (inc.path.starts_with("hip") || inc.path.starts_with("roc")))
        e.report(inc.header, Severity::warning, "unknown-header",
                 fmt::format("<{}> is a HIP or ROCm header with no CUDA counterpart in the mapping tables; left unchanged", inc.path));
      continue;
    }
    if (!e.tok(inc.hash).has(lex::kInDisabledGroup)) e.needed_shims |= shim_for_header(inc.path);
    if (entry->status == maps::Status::unsupported) {
      // In a group the file's own conditions exclude as its macros stand (caffe's
      // `#ifdef USE_CUDNN` around <cudnn.h>, with gpuport nvcc reading the build's -D): no
      // compiler reads it, and the build goes on; a build that enables the group needs one.
      if (excluded(inc.hash))
        e.report(inc.header, Severity::warning, "unsupported-header",
                 fmt::format("<{}> ({}) has no HIP counterpart, in a group that this file's conditions exclude as its macros "
                             "stand; a build that enables the group needs one",
                             inc.path, entry->family),
                 entry->note);
      else
        e.report(inc.header, Severity::error, "unsupported-header",
                 fmt::format("<{}> ({}) has no HIP counterpart", inc.path, entry->family), entry->note);
      continue;
    }
    // One include per HIP header: later unconditional duplicates go, whole line -- not one
    // inside the brackets of code, where removing it would change what those hold (a second
    // translation would then read that code differently).
    if (inc.depth == 0 && !inc.in_brackets && removable_line(e, inc) &&
        (included.count(entry->hip) || (entry->hip == kRuntime && runtime_seen))) {
      auto [begin, end] = directive_line(e, inc.hash);
      e.replace_range(begin, end, "");
      ++e.result().rewrites;
      continue;
    }
    if (inc.depth == 0) {
      included.emplace(entry->hip);
      if (entry->hip == kRuntime) runtime_seen = true;
    }
    // HIP 5.2's hip_cooperative_groups.h uses hipBlockDim_x and friends, which only
    // hip_runtime.h defines, without including it: ahead of the runtime include (or without one)
    // it does not compile for AMD, so the runtime include goes right before it. A later runtime
    // include stays (it is harmless, and its line may hold a shim).
    if (entry->hip == "hip/hip_cooperative_groups.h" && inc.depth == 0 && !runtime_seen && !e.runtime_inserted_at &&
        !inc.in_brackets) {
      const std::uint32_t begin = directive_line(e, inc.hash).first;
      e.insert(begin, fmt::format("#include <hip/hip_runtime.h>{}", line_end(e)));
      ++e.result().rewrites;
      e.runtime_inserted_at = begin;
    }
    // A C header included for C linkage (extern "C" { #include "cuda.h" }) whose HIP counterpart
    // is C++ (templates, overloads): it goes before the block, where it keeps C++ linkage.
    if (inc.extern_c && !e.options().to_cuda && entry->hip.starts_with("hip/") && !inc.in_brackets && removable_line(e, inc)) {
      auto [begin, end] = directive_line(e, inc.hash);
      e.replace_range(begin, end, "");
      const std::uint32_t block = directive_line_start(e, *inc.extern_c);
      e.insert(block, fmt::format("#include <{}>{}", entry->hip, line_end(e)));
      e.report(inc.header, Severity::note, "include-extern-c",
               fmt::format("<{}> inside extern \"C\": its HIP counterpart <{}> is C++ and needs C++ linkage, so it is included "
                           "before the extern \"C\" block",
                           inc.path, entry->hip));
      ++e.result().rewrites;
      continue;
    }
    if (entry->hip != inc.path) {
      e.replace(inc.header, replace_path(e.text(inc.header), header_spelling(entry->hip, e.options().hipify_style)));
      ++e.result().rewrites;
    }
  }
}

void add_driver_include(Engine& e) {
  // HIP's runtime header declares its module API (hipModuleLoad...) too; CUDA's driver API
  // (cuModuleLoad...) is in <cuda.h>, which nvcc does not include by itself.
  if (!e.uses_driver_api) return;  // found by the identifier pass
  for (const auto& inc : find_includes(e))
    if (inc.path == "cuda.h") return;
  for (const auto& inc : find_includes(e)) {
    if (inc.path != kRuntime || inc.depth != 0 || inc.in_brackets) continue;
    e.insert(directive_line(e, inc.hash).first, fmt::format("#include <cuda.h>{}", line_end(e)));
    ++e.result().rewrites;
    return;
  }
}

void place_runtime_include(Engine& e, std::size_t rewrites_before_identifiers) {
  if (!e.options().add_runtime_include) return;
  const bool uses_cuda = e.result().rewrites - e.pp_rewrites > rewrites_before_identifiers;
  const bool device = e.has_device_code() || e.has_launches();
  // hipify-clang adds the runtime include to every file it translates.
  const bool every_file = e.options().hipify_style;

  const auto& tokens = e.stream();
  auto after_line = [&](std::size_t sig_index) {
    std::size_t k = e.token_index(sig_index);
    while (k < tokens.size() && tokens[k].kind != lex::TokenKind::newline) ++k;
    return k < tokens.size() ? tokens[k].end() : static_cast<std::uint32_t>(e.source().size());
  };
  // Match the file's line endings.
  const std::string_view eol = line_end(e);
  const bool crlf = eol.size() == 2;
  // The shims the file calls for and does not hold yet, in their fixed order.
  const std::uint32_t missing_shims = e.needed_shims & ~e.present_shims();
  // The shims that read the level (GPUPORT_CUDA_LEVEL) get the translation's, where it is not
  // the level they assume.
  static const std::uint32_t level_shims = shim_for_guard("GPUPORT_CUDA_ARCH") | shim_for_guard("GPUPORT_DEVICE_CC") |
                                           shim_for_guard("GPUPORT_NVML");
  auto shim = [&] {
    std::string out;
    auto append = [&](std::string_view text) {
      for (char c : text) {
        if (c == '\n' && crlf) out += '\r';
        out += c;
      }
    };
    if ((missing_shims & level_shims) && e.options().cuda_arch != kDeviceCudaArch && !e.options().to_cuda)
      append(cuda_level_definition(e.options().cuda_arch));
    for (std::size_t k = 0; k < shims().size(); ++k)
      if (missing_shims & (1u << k)) append(shims()[k].text);
    return out;
  };

  bool has_runtime = false, has_runtime_api = false;
  std::optional<std::size_t> runtime_hash;  // the first unconditional runtime include
  std::vector<std::size_t> conditional_runtime_hashes;  // runtime includes inside #if branches
  std::optional<std::uint32_t> first_hip_include;  // offset of the first include of a HIP header
  for (const auto& inc : find_includes(e)) {
    std::string_view target = inc.path;
    if (const auto* entry = e.map().find_header(inc.path); entry && entry->status != maps::Status::unsupported)
      target = entry->hip;
    has_runtime |= target == kRuntime;
    has_runtime_api |= target == kRuntimeApi;
    if (target == kRuntime && inc.depth == 0 && !runtime_hash) runtime_hash = inc.hash;
    if (target == kRuntime && inc.depth > 0 && !e.tok(inc.hash).has(lex::kInDisabledGroup))
      conditional_runtime_hashes.push_back(inc.hash);
    if (target.starts_with("hip") && !first_hip_include) first_hip_include = e.tok(inc.hash).offset;
  }
  // A rewritten condition on a HIP macro (#ifdef __CUDACC__ -> #ifdef __HIPCC__): on NVIDIA only
  // HIP's headers define these (clang defines them on AMD), so a HIP header must come first.
  const bool platform_macros_needed =
      e.first_hip_condition && (!first_hip_include || *first_hip_include > *e.first_hip_condition);

  // After #pragma once or an include guard's #define; else before the first line of code.
  auto insert_at_top = [&](std::string text) {
    std::optional<std::uint32_t> at;
    for (std::size_t i : e.directives()) {
      if (e.is(i + 1, "pragma") && e.is(i + 2, "once")) {
        at = after_line(i);
        break;
      }
    }
    // hipify-clang's place: right after the guard's #ifndef when that comes before #pragma once.
    if (every_file) {
      if (const auto guard = include_guard_ifndef(e); guard && (!at || after_line(*guard) < *at)) at = after_line(*guard);
    }
    if (!at && e.size() >= 6 && e.tok(0).has(lex::kDirectiveHash) && e.is(1, "ifndef") && e.is_identifier(2) &&
        e.tok(3).has(lex::kDirectiveHash) && e.is(4, "define") && e.text(5) == e.text(2)) {
      at = after_line(3);
    }
    if (at && *at == e.source().size() && !e.source().empty() && e.source().back() != '\n') text.insert(0, eol);
    if (!at) {
      if (e.size() == 0) return;
      std::size_t k = e.token_index(0);
      while (k > 0 && tokens[k - 1].kind == lex::TokenKind::whitespace) --k;
      at = tokens[k].offset;
    }
    // A UTF-8 byte-order mark must stay at byte 0 (clang rejects one anywhere else).
    if (e.source().starts_with("\xEF\xBB\xBF") && *at < 3) at = 3;
    e.insert(*at, std::move(text));
    ++e.result().rewrites;
  };
  const std::string platform_include = fmt::format("#include <hip/hip_common.h>{}", eol);

  // A header whose shim declares what it declared (nvml.h, NVTX's) needs the shim even where
  // the file calls nothing the tables rename (cuSZ's verinfo.cu calls only NVML).
  bool header_shims = false;
  for (const auto& inc : find_includes(e)) header_shims = header_shims || (shim_for_header(inc.path) & missing_shims) != 0;
  if (!device && !uses_cuda && !every_file && !header_shims) {
    if (platform_macros_needed) insert_at_top(platform_include);
    return;
  }
  const bool add_shim = missing_shims != 0;
  if (has_runtime || (!device && has_runtime_api && !every_file)) {
    // After the unconditional runtime include; with none, after each conditional one (llama.cpp
    // includes HIP's or CUDA's runtime by a macro): the shims' guards keep one copy.
    const std::vector<std::size_t> after =
        !add_shim ? std::vector<std::size_t>{} : runtime_hash ? std::vector<std::size_t>{*runtime_hash} : conditional_runtime_hashes;
    std::set<std::uint32_t> done;
    for (std::size_t hash : after) {
      const auto at = after_line(hash);
      if (!done.insert(at).second) continue;
      // An include on the last line, without a line end: the shim starts a line of its own.
      const bool open_line = at == e.source().size() && e.source().back() != '\n';
      e.insert(at, open_line ? std::string(eol) + shim() : shim());
    }
    if (platform_macros_needed) insert_at_top(platform_include);
    return;
  }
  // The runtime include that rewrite_includes put before a cooperative-groups include: the
  // shims follow it there, and no second one is added.
  if (e.runtime_inserted_at) {
    if (add_shim) e.insert(*e.runtime_inserted_at, shim());
    if (platform_macros_needed) insert_at_top(platform_include);
    return;
  }
  std::string text = "#include <hip/hip_runtime.h>";
  text += eol;
  if (add_shim) text += shim();
  insert_at_top(std::move(text));
}

}  // namespace gpuport::source
