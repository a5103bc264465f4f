// Findings a compiler would not give but a port needs: inline PTX, and code that assumes a
// 32-lane warp where AMD wavefronts have 64 lanes (CDNA) or 32 (RDNA3, but 64 on its host
// side). Safe fixes are applied with --fix-warp-size; the rest is reported with advice.
#include <algorithm>
#include <cctype>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "source/conditionals.h"
#include "source/engine.h"
#include "source/lane_flow.h"

namespace gpuport::source {
namespace {

using lex::TokenKind;

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Case-insensitive substring test without allocating.
bool contains_ci(std::string_view hay, std::string_view needle) {
  if (needle.size() > hay.size()) return false;
  for (std::size_t i = 0; i + needle.size() <= hay.size(); ++i) {
    std::size_t k = 0;
    // needle is lower-case letters only, so OR-ing 0x20 is an exact ASCII case fold here.
    while (k < needle.size() && (hay[i + k] | 0x20) == needle[k]) ++k;
    if (k == needle.size()) return true;
  }
  return false;
}

bool is_full_32bit_mask(std::string_view s) {
  if (s.size() < 10 || s.size() > 13 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X')) return false;
  std::string t = lower(s);
  while (!t.empty() && (t.back() == 'u' || t.back() == 'l')) t.pop_back();
  return t == "0xffffffff";
}

bool names_warp_size(std::string_view n) {
  return contains_ci(n, "warp") && (contains_ci(n, "size") || contains_ci(n, "width") ||
                                    contains_ci(n, "threads") || contains_ci(n, "lanes"));
}

bool names_lane_or_thread(std::string_view n) {
  // warpSize is the portable size, not an index: `x & (warpSize - 1) & 0x1f` is no lane index
  // that the fixes made (or translating the fixed text would change it again).
  if (n == "warpSize") return false;
  return contains_ci(n, "lane") || contains_ci(n, "warp") || contains_ci(n, "tid") || contains_ci(n, "thread") ||
         n == "tx";
}

bool is_warp_function(std::string_view name) {
  return name.starts_with("__shfl") || name.starts_with("__ballot") || name.starts_with("__any") ||
         name.starts_with("__all") || name.starts_with("__match") || name.starts_with("__reduce_") ||
         name == "__syncwarp" || name == "__activemask";
}

// Does the left operand of the binary operator at sig index `op` mention a thread or lane
// index? Looks back over one operand: a name, member access, call or parenthesised group.
bool left_operand_mentions_lane(const Engine& e, std::size_t op) {
  if (op == 0) return false;
  std::size_t i = op - 1;
  int depth = 0;
  for (std::size_t steps = 0; steps < 24; ++steps) {
    const auto t = e.text(i);
    if (t == ")" || t == "]") ++depth;
    else if (t == "(" || t == "[") {
      if (depth == 0) return false;
      --depth;
    } else if (depth == 0 && !(e.is_identifier(i) || t == "." || t == "->" || t == "::")) {
      return false;
    }
    if (e.is_identifier(i) && names_lane_or_thread(t)) return true;
    if (i == 0) return false;
    --i;
  }
  return false;
}

// Is the expression holding the operator at `op` assigned to a lane variable
// (`int lane = x % 32;`, `lane_id = ...`)?
bool assigned_to_lane(const Engine& e, std::size_t op) {
  int depth = 0;
  for (std::size_t k = op; k > 0 && op - k < 24; --k) {
    const auto t = e.text(k - 1);
    if (t == ")" || t == "]") ++depth;
    else if (t == "(" || t == "[") {
      if (depth == 0) return false;
      --depth;
    } else if (depth == 0 && (t == ";" || t == "{" || t == "}" || t == ",")) {
      return false;
    } else if (depth == 0 && t == "=" && k >= 2) {
      return e.is_identifier(k - 2) && contains_ci(e.text(k - 2), "lane");
    }
  }
  return false;
}

// A PTX type or state-space suffix (mov.u32, ld.global, setp.ne.s32, .pred): CPU assembly
// has none of these.
bool has_ptx_suffix(std::string_view mnemonic) {
  for (std::string_view suffix : {".u8", ".u16", ".u32", ".u64", ".s8", ".s16", ".s32", ".s64", ".b8", ".b16", ".b32",
                                  ".b64", ".f16", ".f32", ".f64", ".pred", ".global", ".shared", ".local", ".sync"})
    if (mnemonic.find(suffix) != std::string_view::npos) return true;
  return false;
}

// AMD GPU assembly (a project's own code for AMD, llama.cpp's v_mul_i32_i24 for gfx1010): an AMD
// mnemonic (v_, s_, ds_, global_, ...) or a VGPR operand ("v", "=&v"), where nothing reads as PTX.
bool is_amd_gpu_asm(const std::vector<std::string>& mnemonics, const std::vector<std::string_view>& constraints) {
  for (const auto& m : mnemonics)
    for (std::string_view prefix : {"v_", "s_", "ds_", "global_", "flat_", "buffer_", "scratch_", "image_"})
      if (m.starts_with(prefix)) return true;
  for (auto c : constraints) {
    while (!c.empty() && (c.front() == '=' || c.front() == '+' || c.front() == '&')) c.remove_prefix(1);  // modifiers
    if (c == "v") return true;
  }
  return false;
}

// `host`: the asm is outside device code, where it is normally the host CPU's (x86 rdtsc, ARM
// mrc), which the HIP host compiler takes as it is; it is reported only when it reads as PTX
// (a mnemonic with a PTX suffix or one of ptx.tsv, a PTX special register).
// `excluded`: the asm is in a group the file's own conditions exclude, with its macros and the
// -D/-U settings (GPUJPEG's PTX IDCT under `#if !GPUJPEG_IDCT_USE_ASM ... #else`, with the macro
// defined 0 above): no compiler sees it, so it is a warning for the build that enables it.
void report_inline_asm(Engine& e, std::size_t at, bool host, bool excluded) {
  // asm [volatile|__volatile__|inline|goto]* ( "template" : ... )
  std::size_t open = at + 1;
  while (open < e.size() && (e.is(open, "volatile") || e.is(open, "__volatile__") || e.is(open, "inline") ||
                             e.is(open, "goto")))
    ++open;
  if (!e.is(open, "(")) return;
  const std::size_t close = e.match(open);
  std::string code;
  // The template ends at the first ':' -- or '::', when the outputs are empty (asm("..." :: "r"(x))).
  for (std::size_t i = open + 1; i < close && i < e.size() && !e.is(i, ":") && !e.is(i, "::"); ++i) {
    if (e.tok(i).kind != TokenKind::string_literal) continue;
    auto s = e.text(i);
    auto q = s.find('"');
    if (q == std::string_view::npos || s.size() < q + 2) continue;
    code += s.substr(q + 1, s.size() - q - 2);
  }
  // Mnemonics and special registers, in order of appearance.
  std::vector<std::string> mnemonics;
  std::vector<std::string> hints;
  bool ptx_evidence = false;
  std::size_t pos = 0;
  while (pos < code.size()) {
    auto end = code.find(';', pos);
    std::string stmt = code.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    pos = end == std::string::npos ? code.size() : end + 1;
    // Skip blanks, braces and the escapes \n \t \r (two characters each in the literal): not
    // the letters n, r and t themselves, which begin mnemonics (rdtsc, neg, tex).
    std::size_t k = 0;
    while (k < stmt.size()) {
      if (stmt[k] == ' ' || stmt[k] == '\t' || stmt[k] == '{' || stmt[k] == '}') ++k;
      else if (stmt[k] == '\\' && k + 1 < stmt.size()) k += 2;
      else break;
    }
    if (k >= stmt.size()) k = std::string::npos;
    while (k != std::string::npos && stmt[k] == '@') {  // predicate guard
      k = stmt.find_first_of(" \t", k);
      if (k != std::string::npos) k = stmt.find_first_not_of(" \t", k);
    }
    if (k == std::string::npos) continue;
    std::size_t m_end = stmt.find_first_of(" \t\\", k);
    std::string mnemonic = stmt.substr(k, m_end == std::string::npos ? std::string::npos : m_end - k);
    if (mnemonic.empty() || mnemonic.front() == '.') continue;  // .reg declarations
    mnemonics.push_back(mnemonic);
    const maps::PtxReplacement* best = nullptr;
    for (const auto& r : e.map().ptx_replacements()) {
      if (r.pattern.front() == '%') {
        if (stmt.find(r.pattern) != std::string::npos && (!best || best->pattern.front() != '%' ||
                                                           r.pattern.size() > best->pattern.size()))
          best = &r;
        continue;
      }
      if (mnemonic.starts_with(r.pattern) && (!best || (best->pattern.front() != '%' && r.pattern.size() > best->pattern.size())))
        best = &r;
    }
    if (best || has_ptx_suffix(mnemonic)) ptx_evidence = true;
    if (best) {
      std::string hint = best->hip == "-" ? fmt::format("{}: {}", best->pattern, best->note)
                                          : fmt::format("{} -> {}", best->pattern, best->hip);
      if (std::find(hints.begin(), hints.end(), hint) == hints.end()) hints.push_back(hint);
    }
  }
  if (host && !ptx_evidence) return;
  // The operand constraints: the string literals after the template that a `(` follows.
  std::vector<std::string_view> constraints;
  for (std::size_t i = open + 1; i + 1 < close && i + 1 < e.size(); ++i) {
    if (e.tok(i).kind != TokenKind::string_literal || !e.is(i + 1, "(")) continue;
    const auto c = e.text(i);
    if (c.size() >= 2 && c.front() == '"') constraints.push_back(c.substr(1, c.size() - 2));
  }
  // Already the target's: kept as written.
  if (!ptx_evidence && is_amd_gpu_asm(mnemonics, constraints)) return;
  std::string list;
  for (std::size_t i = 0; i < mnemonics.size() && i < 6; ++i) list += (i ? ", " : "") + mnemonics[i];
  if (mnemonics.size() > 6) list += ", ...";
  std::string fix = "replace with HIP device functions";
  if (!hints.empty()) {
    fix = "";
    for (std::size_t i = 0; i < hints.size(); ++i) fix += (i ? "; " : "") + hints[i];
  }
  const std::string what = list.empty() ? std::string("inline assembly is NVIDIA PTX") : fmt::format("inline PTX ({})", list);
  if (excluded)
    e.report(at, Severity::warning, "inline-ptx",
             what + " in a group that this file's conditions exclude as its macros stand; it does not compile for AMD GPUs "
                    "in a build that enables the group",
             fix);
  else
    e.report(at, Severity::error, "inline-ptx", what + " does not compile for AMD GPUs", fix);
}

// Does the operand before `op` mention blockDim (a block size, whose / 32 counts warps)?
bool operand_mentions_block_size(const Engine& e, const LaneFlow& flow, std::size_t op) {
  for (std::size_t k = flow.operand_start(op); k < op; ++k)
    if (e.is(k, "blockDim")) return true;
  return false;
}

// The directive tokens (first, last: `ifdef __HIP_PLATFORM_AMD__`, `if defined(...)`) of the
// innermost conditional group around `at`, where that group is a project's AMD branch, `at` is
// in it before its #else, the group has an #else (CUDA's code), and the directive stands in
// device code (a kernel's body: both passes agree on everything outside it).
std::optional<std::pair<std::size_t, std::size_t>> amd_branch_with_cuda_alternative(const Engine& e, std::size_t at) {
  const auto& dirs = e.directives();
  auto word = [&](std::size_t hash) { return e.text(hash + 1); };
  // The innermost group open at `at`, and whether `at` is past its #else.
  std::vector<std::size_t> open;
  std::vector<bool> in_else;
  std::size_t k = 0;
  for (; k < dirs.size() && dirs[k] < at; ++k) {
    const auto w = word(dirs[k]);
    if (w == "if" || w == "ifdef" || w == "ifndef") {
      open.push_back(dirs[k]);
      in_else.push_back(false);
    } else if ((w == "else" || w == "elif") && !open.empty()) {
      in_else.back() = true;
    } else if (w == "endif" && !open.empty()) {
      open.pop_back();
      in_else.pop_back();
    }
  }
  if (open.empty() || in_else.back()) return std::nullopt;
  const std::size_t hash = open.back();
  // Its #else, at its own depth; an #elif chain is another shape, left alone.
  int depth = 0;
  bool has_else = false;
  for (; k < dirs.size(); ++k) {
    const auto w = word(dirs[k]);
    if (w == "if" || w == "ifdef" || w == "ifndef") {
      ++depth;
    } else if (w == "endif") {
      if (depth-- == 0) break;
    } else if (depth == 0 && w == "elif") {
      return std::nullopt;
    } else if (depth == 0 && w == "else") {
      has_else = true;
    }
  }
  if (!has_else || !e.in_device_only_code(hash)) return std::nullopt;
  // `#ifdef __HIP_PLATFORM_AMD__`, `#if defined(__HIP_PLATFORM_AMD__)`, `#if defined __HIP_PLATFORM_AMD__`, alone.
  std::size_t last;
  if (e.is(hash + 1, "ifdef") && e.is(hash + 2, "__HIP_PLATFORM_AMD__")) last = hash + 2;
  else if (e.is(hash + 1, "if") && e.is(hash + 2, "defined") && e.is(hash + 3, "(") && e.is(hash + 4, "__HIP_PLATFORM_AMD__") &&
           e.is(hash + 5, ")"))
    last = hash + 5;
  else if (e.is(hash + 1, "if") && e.is(hash + 2, "defined") && e.is(hash + 3, "__HIP_PLATFORM_AMD__")) last = hash + 3;
  else return std::nullopt;
  if (last + 1 < e.size() && e.tok(last + 1).has(lex::kInDirective) && !e.tok(last + 1).has(lex::kDirectiveHash)) return std::nullopt;
  return std::pair{hash + 1, last};
}

// A call whose result counts bits and can equal the operand's width: __clz(0) is 32.
bool counts_bits(const Engine& e, std::size_t k) {
  const auto w = e.text(k);
  return (w == "__clz" || w == "__clzll" || w == "__ffs" || w == "__ffsll" || w == "__popc" || w == "__popcll") && e.is(k + 1, "(");
}

// Shifts in device code whose amount can reach the operand's width: a bit count (`x >> __clz(m)`,
// or a variable assigned one, GPUJPEG's `0x80000000 >> zero_pair_count`) or `32 - n`. nvcc's PTX
// shifts clamp the amount (0, or the sign); AMD's use its low bits, and C++ leaves it undefined.
// gpuport nvcc gives such shifts PTX's meaning; a translation that other compilers build does
// not have it.
void report_wide_shifts(Engine& e) {
  std::set<std::string_view> bit_counts;  // variables assigned a bit count, by name
  for (std::size_t i = 0; i + 2 < e.size(); ++i)
    if (e.is_identifier(i) && e.is(i + 1, "=") && counts_bits(e, i + 2) && e.in_device_code(i)) bit_counts.insert(e.text(i));
  for (std::size_t i = 0; i + 1 < e.size(); ++i) {
    const auto& t = e.tok(i);
    if (t.kind != TokenKind::punctuator || t.has(lex::kInDisabledGroup) || e.is_dropped(i)) continue;
    const auto op = e.text(i);
    if (op != ">>" && op != "<<" && op != ">>=" && op != "<<=") continue;
    if (!e.in_device_code(i)) continue;
    std::size_t k = i + 1;
    while (e.is(k, "(")) ++k;
    std::string why;
    if (counts_bits(e, k)) why = fmt::format("{}() can return the width", e.text(k));
    else if (e.is_identifier(k) && !e.is(k + 1, "(") && bit_counts.count(e.text(k)))
      why = fmt::format("'{}' holds a bit count, which can be the width", e.text(k));
    else if (e.tok(k).kind == TokenKind::number && (e.text(k) == "32" || e.text(k) == "64") && e.is(k + 1, "-"))
      why = fmt::format("'{} - ...' is the width when what it subtracts is 0", e.text(k));
    if (why.empty()) continue;
    e.report(i, Severity::warning, "shift-by-width",
             fmt::format("'{}' by an amount that can reach the operand's width: {}; nvcc's PTX shifts give 0 (or the sign) "
                         "there, AMD's use the amount's low bits",
                         op, why),
             "guard the shift (n >= 32 ? 0 : x >> n); gpuport nvcc builds give it nvcc's meaning");
  }
}

}  // namespace

void find_hazards(Engine& e) {
  report_wide_shifts(e);
  const bool fix = e.options().fix_warp_size;
  std::optional<LaneFlow> flow_storage;  // made at the first number that could start an idiom
  auto flow = [&]() -> const LaneFlow& {
    if (!flow_storage) flow_storage.emplace(e);
    return *flow_storage;
  };
  std::set<std::size_t> wave64_groups;  // the AMD branches given a wave64 condition (their #if's word)
  std::optional<std::vector<bool>> excluded_storage;  // evaluated at the first asm
  auto excluded = [&](std::size_t i) {
    if (!excluded_storage) excluded_storage = excluded_tokens(e.stream(), e.options().preprocessor);
    const std::size_t index = e.token_index(i);
    return index < excluded_storage->size() && (*excluded_storage)[index];
  };
  for (std::size_t i = 0; i < e.size(); ++i) {
    const auto& t = e.tok(i);
    if (t.has(lex::kInDisabledGroup) || e.is_dropped(i)) continue;
    const auto s = e.text(i);
    // static_assert(BLOCK % 32 == 0, ...) checks a size; it computes no lane index.
    if (t.kind == TokenKind::identifier && s == "static_assert" && e.is(i + 1, "(")) {
      const std::size_t close = e.match(i + 1);
      if (close < e.size()) i = close;
      continue;
    }

    if (t.kind == TokenKind::identifier) {
      if ((s[0] == 'a' || s[0] == '_') && (s == "asm" || s == "__asm__" || s == "__asm")) {
        report_inline_asm(e, i, !e.in_device_code(i), excluded(i));
        continue;
      }
      // Warp-size constants: #define WARP_SIZE 32, constexpr int kWarpSize = 32, enum { WARP_SIZE = 32 }.
      const bool assigned = e.is(i + 1, "=");
      const bool defined = t.has(lex::kInDirective) && i >= 2 && e.is(i - 1, "define");
      if ((assigned || defined) && names_warp_size(s)) {
        std::size_t v = e.is(i + 1, "=") ? i + 2 : (t.has(lex::kInDirective) && i >= 2 && e.is(i - 1, "define")) ? i + 1 : e.size();
        if (v < e.size() && e.tok(v).kind == TokenKind::number && integer_value(e.text(v)) == 32 &&
            (e.tok(v).has(lex::kInDirective) == t.has(lex::kInDirective))) {
          e.report(v, Severity::warning, "warp-size-constant",
                   fmt::format("'{}' fixes the warp size at 32; AMD wavefronts have 64 lanes on CDNA and on the host side of RDNA3", s),
                   "use warpSize in device code; for a compile-time size use __AMDGCN_WAVEFRONT_SIZE (AMD) or size arrays for 64 lanes");
        }
      }
      if (s[0] != '_') continue;  // the rest concern __ballot*, __popc, __shfl* ...
      // 32-bit storage of a ballot: unsigned m = __ballot_sync(...); uint32_t a = __activemask();
      if ((s == "__ballot_sync" || s == "__ballot" || s == "__activemask") && i >= 3 && e.is(i - 1, "=") &&
          e.is_identifier(i - 2)) {
        std::size_t type_end = i - 3;
        std::size_t type_begin = type_end;
        auto is_type_word = [&](std::size_t k) {
          const auto w = e.text(k);
          return w == "unsigned" || w == "int" || w == "uint32_t" || w == "int32_t" || w == "signed" || w == "const" ||
                 w == "auto" || w == "long";
        };
        while (type_begin > 0 && is_type_word(type_begin - 1)) --type_begin;
        if (is_type_word(type_end)) {
          std::string type;
          for (std::size_t k = type_begin; k <= type_end; ++k) type += std::string(e.text(k)) + " ";
          const bool wide = type.find("long") != std::string::npos || type.find("auto") != std::string::npos;
          if (!wide) {
            const bool is_const = type.find("const") != std::string::npos;
            auto& d = e.report(type_begin, Severity::warning, "warp-ballot-32bit",
                               fmt::format("'{}' result stored in 32 bits; AMD ballots and lane masks are 64-bit", s),
                               is_const ? "const unsigned long long" : "unsigned long long");
            if (fix && e.in_device_code(i)) {
              e.replace_range(e.tok(type_begin).offset, e.tok(type_end).end(),
                              is_const ? "const unsigned long long" : "unsigned long long");
              d.fixed = true;
            }
          }
        }
      }
      // __popc(__ballot_sync(...)) counts only the low 32 lanes.
      if ((s == "__popc" || s == "__ffs" || s == "__clz") && e.is(i + 1, "(") &&
          (e.is(i + 2, "__ballot_sync") || e.is(i + 2, "__ballot") || e.is(i + 2, "__activemask"))) {
        const std::string wide = std::string(s) + "ll";
        auto& d = e.report(i, Severity::warning, "warp-ballot-32bit",
                           fmt::format("{} of a ballot looks at 32 lanes; AMD ballots are 64-bit", s), wide);
        if (fix) {
          e.replace(i, wide);
          d.fixed = true;
        }
      }
      // Width argument 32 of a shuffle: __shfl_xor(v, m, 32).
      if (s.starts_with("__shfl") && e.is(i + 1, "(")) {
        if (auto call = e.arguments(i + 1)) {
          const std::size_t expected = s.ends_with("_sync") ? 4 : 3;
          if (call->args.size() == expected) {
            auto [a, b] = call->args.back();
            if (a == b && e.tok(a).kind == TokenKind::number && integer_value(e.text(a)) == 32) {
              auto& d = e.report(a, Severity::warning, "warp-size-literal",
                                 "shuffle width 32 assumes a 32-lane warp", "warpSize");
              if (fix && e.in_device_only_code(a)) {
                e.replace(a, "warpSize");
                d.fixed = true;
              }
            }
            // Width 64, which CUDA does not allow: code written for AMD's 64-lane wavefronts (a
            // project's own HIP branch, cuSZ's histogram scan), live once the file is HIP.
            if (a == b && e.tok(a).kind == TokenKind::number && integer_value(e.text(a)) == 64) {
              auto& d = e.report(a, Severity::warning, "wave64-width",
                                 "shuffle width 64: code for 64-lane wavefronts (CDNA); gfx1100 (RDNA3) runs 32-lane wavefronts, "
                                 "where a width of 64 spans two of them and each keeps its own lanes",
                                 "use warpSize as the width, and warpSize-based lane tests; a CUDA branch beside it is written for 32 lanes");
              if (const auto group = amd_branch_with_cuda_alternative(e, a)) {
                // The project's AMD branch, in device code, with CUDA's beside it: taken where the
                // wavefront has 64 lanes, CUDA's (written for 32) on gfx1100.
                if (wave64_groups.insert(group->first).second)
                  e.replace_range(e.tok(group->first).offset, e.tok(group->second).end(),
                                  "if defined(__HIP_PLATFORM_AMD__) && __AMDGCN_WAVEFRONT_SIZE == 64");
                d.fix = "the branch is now taken for 64-lane wavefronts only; gfx1100 takes the #else branch, CUDA's";
                d.fixed = true;
              }
            }
          }
        }
      }
      continue;
    }

    if (t.kind == TokenKind::number) {
      const long long v = integer_value(s);
      // 0xffffffff passed to a warp function or stored as a mask.
      if (is_full_32bit_mask(s)) {
        bool mask_use = false;
        bool dropped_arg = false;  // the call rules remove the mask argument (HIP 5.2 has no *_sync)
        // The lane-mask argument of a warp function: the first one of a *_sync function or of
        // __syncwarp (a value argument holding the same literal is no mask). Walk back to the
        // call's '(' without crossing a comma at the call's own level.
        int depth = 0;
        for (std::size_t k = i; k > 0 && i - k < 12; --k) {
          const auto w = e.text(k - 1);
          if (w == ")") ++depth;
          else if (w == "," && depth == 0) break;
          else if (w == "(") {
            if (depth == 0) {
              const auto function = k >= 2 ? e.text(k - 2) : std::string_view();
              mask_use = is_warp_function(function) && (function.ends_with("_sync") || function == "__syncwarp");
              if (mask_use) {
                for (const auto& rule : e.map().call_rules(e.text(k - 2)))
                  dropped_arg |= rule.action == maps::CallAction::drop && rule.index == 0;
              }
              break;
            }
            --depth;
          } else if (w == ";" || w == "{") break;
        }
        const bool named_mask = i >= 2 && e.is(i - 1, "=") && contains_ci(e.text(i - 2), "mask");
        if (named_mask || (mask_use && !dropped_arg)) {
          auto& d = e.report(i, Severity::warning, "warp-mask-32bit",
                             "32-bit full lane mask; AMD wavefronts have up to 64 lanes", "0xffffffffffffffffull");
          if (fix) {
            e.replace(i, "0xffffffffffffffffull");
            d.fixed = true;
          }
        }
        continue;
      }
      if (!e.in_device_code(i) || i == 0) continue;
      if (v != 31 && v != 32 && v != 5 && v != 16) continue;
      const auto op = e.text(i - 1);
      // What the operand before the operator is, by data flow (whatever its name) or by name.
      const LaneClass left = (op == "%" || op == "&" || op == "/" || op == ">>" || op == "*" || op == "<" ||
                              op == ">=" || op == "<=" || op == ">")
                                 ? flow().of_left_operand(i - 1)
                                 : LaneClass::none;
      // Lane arithmetic: lane = threadIdx.x & 31, tid % 32. A divisibility check such as
      // static_assert(BLOCK % 32 == 0) is not lane arithmetic; require a thread or lane operand,
      // or a result stored in a lane variable.
      const bool lane_context = left_operand_mentions_lane(e, i - 1) || assigned_to_lane(e, i - 1) ||
                                left == LaneClass::thread || left == LaneClass::lane;
      if (((op == "&" && v == 31) || (op == "%" && v == 32)) && lane_context) {
        const std::string fixed = op == "&" ? "(warpSize - 1)" : "warpSize";
        auto& d = e.report(i, Severity::warning, "warp-lane-arithmetic",
                           fmt::format("'{} {}' computes a lane index for 32-lane warps", op, s), fixed);
        if (fix && e.in_device_only_code(i)) {
          e.replace(i, fixed);
          d.fixed = true;
        }
        continue;
      }
      // Warps per block: blockDim.x / 32, (blockDim.x + 31) / 32.
      if (((op == "/" && v == 32) || (op == ">>" && v == 5)) && left == LaneClass::none &&
          !left_operand_mentions_lane(e, i - 1) && operand_mentions_block_size(e, flow(), i - 1)) {
        auto& d = e.report(i, Severity::warning, "warp-size-literal",
                           fmt::format("'{} {}' counts the warps of a block for 32-lane warps", op, s), "/ warpSize");
        if (fix && e.in_device_only_code(i)) {
          e.replace_range(e.tok(i - 1).offset, t.end(), "/ warpSize");
          d.fixed = true;
        }
        continue;
      }
      // Warp index: threadIdx.x / 32, tid >> 5.
      if (((op == "/" && v == 32) || (op == ">>" && v == 5)) && (left_operand_mentions_lane(e, i - 1) || left == LaneClass::thread)) {
        auto& d = e.report(i, Severity::warning, "warp-size-literal",
                           fmt::format("'{} {}' divides by a 32-lane warp size", op, s), "/ warpSize");
        if (fix && e.in_device_only_code(i)) {
          e.replace_range(e.tok(i - 1).offset, t.end(), "/ warpSize");
          d.fixed = true;
        }
        continue;
      }
      // A loop over a lane's share: for (c = lane; c < n; c += 32).
      if (v == 32 && op == "+=" && i >= 2 && e.is_identifier(i - 2) && flow().of_variable(i - 2) == LaneClass::lane) {
        e.report(i, Severity::warning, "warp-size-literal",
                 fmt::format("'{} += 32' steps a lane-strided loop by one 32-lane warp", e.text(i - 2)),
                 "step by warpSize, or the lanes 32-63 of a 64-lane wavefront repeat the work of 0-31");
        continue;
      }
      // The first warp taken as 32 threads: if (threadIdx.x < 32), lane >= 32.
      if (((v == 32 && (op == "<" || op == ">=")) || (v == 31 && (op == "<=" || op == ">"))) &&
          (left == LaneClass::thread || left == LaneClass::lane)) {
        e.report(i, Severity::warning, "warp-size-literal",
                 fmt::format("'{} {}' takes 32 threads for one warp; AMD wavefronts have 64 lanes on CDNA", op, s),
                 "compare with warpSize");
        continue;
      }
      // A warp-major index: warp * 32 + lane, 32 * warp.
      if (v == 32 && ((op == "*" && left == LaneClass::warp) ||
                      (e.is(i + 1, "*") && flow().of_right_operand(i + 1) == LaneClass::warp) ||
                      (op == "*" && e.is(i + 1, "+") && flow().of_right_operand(i + 1) == LaneClass::lane))) {
        e.report(i, Severity::warning, "warp-size-literal",
                 "'* 32' makes a thread index of a warp index for 32-lane warps", "warpSize");
        continue;
      }
      // Reduction loops that start at half a 32-lane warp: for (int o = 16; o > 0; o /= 2) __shfl_down...
      if (v == 16 && op == "=" && i >= 4 && e.is_identifier(i - 2) && e.is(i - 4, "(") && i >= 5 && e.is(i - 5, "for")) {
        // The loop shuffles: its body (a block, or one statement) calls a __shfl function. By
        // the loop's own extent, which translating does not change (a window of tokens would
        // grow as masks are dropped, so a translation would change again when translated).
        bool shuffles = false;
        const std::size_t header_end = e.match(i - 4);
        std::size_t body_end = header_end;
        if (header_end < e.size() && e.is(header_end + 1, "{")) {
          body_end = e.match(header_end + 1);
        } else if (header_end < e.size()) {
          int depth = 0;
          for (body_end = header_end + 1; body_end < e.size(); ++body_end) {
            const auto w = e.text(body_end);
            if (w == "(" || w == "[" || w == "{") ++depth;
            else if (w == ")" || w == "]" || w == "}") --depth;
            if (depth < 0 || (depth == 0 && w == ";")) break;
          }
        }
        for (std::size_t k = header_end + 1; k < e.size() && k <= body_end && !shuffles; ++k)
          shuffles = e.text(k).starts_with("__shfl");
        if (shuffles) {
          auto& d = e.report(i, Severity::warning, "warp-size-literal",
                             "shuffle reduction starts at 16, which covers 32 lanes only", "warpSize / 2");
          if (fix && e.in_device_only_code(i)) {
            e.replace(i, "warpSize / 2");
            d.fixed = true;
          }
        }
        continue;
      }
      // Shared arrays sized by 32 per warp: __shared__ float partial[32];
      if (v == 32 && op == "[") {
        for (std::size_t k = i; k > 0 && i - k < 12; --k) {
          const auto w = e.text(k - 1);
          if (w == ";" || w == "{" || w == "}") break;
          if (w == "__shared__") {
            e.report(i, Severity::warning, "warp-shared-array",
                     "__shared__ array sized by 32 assumes 32-lane warps; lanes 32-63 of a 64-lane wavefront index past it",
                     "size it by the wavefront size (64 covers both) or by blockDim / warpSize");
            break;
          }
        }
      }
    }
  }
}

}  // namespace gpuport::source
