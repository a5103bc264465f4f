// HIP -> CUDA passes that the CUDA -> HIP direction has no counterpart of: launches written with
// hipLaunchKernelGGL, HIP's wrapper macros, the platform macros, and the 64-lane assumptions of
// code written for AMD's wave64 (which break on 32-lane warps as 32-lane idioms break on CDNA).
// The names themselves are translated by the reversed tables (ApiMap::reversed).
#include <fmt/format.h>

#include <string>
#include <string_view>

#include "source/engine.h"

namespace gpuport::source {

namespace {

using lex::TokenKind;

bool is_zero_argument(const Engine& e, std::pair<std::size_t, std::size_t> arg) {
  if (arg.first != arg.second) return false;
  const std::string_view t = e.text(arg.first);
  return t == "0" || t == "nullptr" || t == "NULL" || t == "0u" || t == "0U";
}

// `NAME(` at i with its matching ')': removes `NAME(` and `)`, keeping what is inside.
bool unwrap(Engine& e, std::size_t i) {
  if (!e.is(i + 1, "(")) return false;
  const std::size_t close = e.match(i + 1);
  if (close >= e.size()) return false;
  const auto group = e.group();
  e.replace_range(e.tok(i).offset, e.tok(i + 1).end(), "");
  e.replace(close, "");
  ++e.result().rewrites;
  return true;
}

bool is_integer(std::string_view t, std::initializer_list<std::string_view> values) {
  std::string v(t);
  while (!v.empty() && (v.back() == 'u' || v.back() == 'U' || v.back() == 'l' || v.back() == 'L')) v.pop_back();
  for (std::string_view x : values)
    if (v == x) return true;
  return false;
}

// A thread or lane index nearby: the statement around `i` (back to ';', '{' or '}') names one.
bool near_lane_index(const Engine& e, std::size_t i) {
  for (std::size_t k = i, seen = 0; k > 0 && seen < 24; --k, ++seen) {
    const std::string_view t = e.text(k - 1);
    if (t == ";" || t == "{" || t == "}") break;
    if (t == "threadIdx" || t == "__lane_id" || t == "hipThreadIdx_x" || t == "__lanemask_lt" || t == "lane" || t == "lane_id" ||
        t == "laneId" || t == "laneid" || t == "tid")
      return true;
  }
  return false;
}

// HIP's index macros (hip_runtime.h): hipThreadIdx_x is threadIdx.x, and so on.
const char* builtin_index(std::string_view name) {
  static const std::pair<std::string_view, const char*> kBuiltins[] = {
      {"hipThreadIdx_x", "threadIdx.x"}, {"hipThreadIdx_y", "threadIdx.y"}, {"hipThreadIdx_z", "threadIdx.z"},
      {"hipBlockIdx_x", "blockIdx.x"},   {"hipBlockIdx_y", "blockIdx.y"},   {"hipBlockIdx_z", "blockIdx.z"},
      {"hipBlockDim_x", "blockDim.x"},   {"hipBlockDim_y", "blockDim.y"},   {"hipBlockDim_z", "blockDim.z"},
      {"hipGridDim_x", "gridDim.x"},     {"hipGridDim_y", "gridDim.y"},     {"hipGridDim_z", "gridDim.z"},
  };
  for (const auto& [hip, cuda] : kBuiltins)
    if (name == hip) return cuda;
  return nullptr;
}

}  // namespace

// hipLaunchKernelGGL(kernel, grid, block, shared, stream, args...) -> kernel<<<grid, block, shared,
// stream>>>(args...), with `shared, stream` left out when both are 0. The arguments' own tokens
// are not edited here, so the other passes translate the names inside them.
void rewrite_hip_launches(Engine& e) {
  for (std::size_t i = 0; i + 1 < e.size(); ++i) {
    if (!e.is_identifier(i) || !(e.is(i, "hipLaunchKernelGGL") || e.is(i, "hipLaunchKernelEx")) || !e.is(i + 1, "(")) continue;
    if (e.tok(i).has(lex::kInDisabledGroup) || e.is(i, "hipLaunchKernelEx")) continue;
    const auto call = e.arguments(i + 1);
    if (!call || call->args.size() < 5) {
      e.report(i, Severity::warning, "launch-not-rewritten",
               "the arguments of hipLaunchKernelGGL cannot be read (fewer than five, unbalanced brackets or directives "
               "inside); left as it is",
               "write the launch as kernel<<<grid, block, shared, stream>>>(args) by hand");
      continue;
    }
    const auto& a = call->args;
    const auto group = e.group();
    // The kernel: HIP_KERNEL_NAME(k<T, U>) unwraps to k<T, U>.
    std::size_t kernel_last = a[0].second;
    if (e.is(a[0].first, "HIP_KERNEL_NAME") && e.is(a[0].first + 1, "(") && e.match(a[0].first + 1) == a[0].second) {
      // (The wrapper's ')' goes with the separator replaced below.)
      e.replace_range(e.tok(i).offset, e.tok(a[0].first + 1).end(), "");
      kernel_last = a[0].second - 1;
    } else {
      e.replace_range(e.tok(i).offset, e.tok(a[0].first).offset, "");
    }
    e.replace_range(e.tok(kernel_last).end(), e.tok(a[1].first).offset, "<<<");
    const bool defaults = is_zero_argument(e, a[3]) && is_zero_argument(e, a[4]);
    const std::size_t last_config = defaults ? a[2].second : a[4].second;
    if (a.size() > 5) {
      e.replace_range(e.tok(last_config).end(), e.tok(a[5].first).offset, ">>>(");
    } else {
      e.replace_range(e.tok(last_config).end(), e.tok(call->close).offset, ">>>(");
    }
    ++e.result().rewrites;
  }
}

// The compatibility shims a CUDA -> HIP translation added (compat.cc: `#if ... !defined(GPUPORT_...)`
// blocks of HIP code for what HIP lacks): CUDA has what they stand in for, so the block goes, from
// the start of its #if line to the end of its #endif line.
void remove_shims(Engine& e) {
  const std::string_view text = e.source();
  for (const auto& [hash, endif] : e.shim_blocks()) {
    std::uint32_t begin = e.tok(hash).offset;
    while (begin > 0 && (text[begin - 1] == ' ' || text[begin - 1] == '\t')) --begin;
    std::uint32_t end = e.tok(endif).end();
    while (end < text.size() && text[end] != '\n') ++end;
    if (end < text.size()) ++end;
    e.erase_generated(begin, end);
    ++e.result().rewrites;
  }
}

bool handled_by_reverse_passes(std::string_view name) {
  return name == "hipLaunchKernelGGL" || name == "HIP_SYMBOL" || name == "HIP_KERNEL_NAME" || name == "__HIP_PLATFORM_NVIDIA__" ||
         name == "__HIP_PLATFORM_NVCC__" || name == "__HIP_PLATFORM_AMD__" || name == "__HIP_PLATFORM_HCC__" ||
         name == "__HIP__" || name == "__HIPCC__" || builtin_index(name) != nullptr;
}

// HIP's macros, in one pass over the names:
// - HIP_SYMBOL(x) -> x (CUDA's symbol functions take the variable itself); HIP_KERNEL_NAME(k<T>)
//   outside a launch -> k<T> (a launch's is done with the launch);
// - HIP's index macros: hipThreadIdx_x -> threadIdx.x, ...;
// - the platform macros as nvcc sees them: HIP's headers define __HIP_PLATFORM_NVIDIA__ (and the
//   older __HIP_PLATFORM_NVCC__) when HIP code is built for NVIDIA; the translation has no HIP
//   headers, so a test of them becomes a test of __CUDACC__, which nvcc defines (unless
//   keep_platform_macros). The AMD ones (__HIP_PLATFORM_AMD__, __HIP_PLATFORM_HCC__, __HIP__)
//   stay: undefined under nvcc, their branches drop out as they should.
void rewrite_hip_macros(Engine& e) {
  for (std::size_t i = 0; i < e.size(); ++i) {
    if (!e.is_identifier(i) || e.edited(i)) continue;
    const bool disabled = e.tok(i).has(lex::kInDisabledGroup);
    if (e.is(i, "HIP_SYMBOL") || e.is(i, "HIP_KERNEL_NAME")) {
      const bool in_launch = i >= 2 && e.is(i - 1, "(") && e.is(i - 2, "hipLaunchKernelGGL");
      if (!disabled && !in_launch) unwrap(e, i);
    } else if (const char* cuda = builtin_index(e.text(i)); cuda != nullptr) {
      if (disabled) continue;
      e.replace(i, cuda);
      ++e.result().rewrites;
    } else if ((e.is(i, "__HIP_PLATFORM_NVIDIA__") || e.is(i, "__HIP_PLATFORM_NVCC__")) && !e.options().keep_platform_macros) {
      const bool defining = i >= 2 && e.tok(i).has(lex::kInDirective) && (e.is(i - 1, "define") || e.is(i - 1, "undef"));
      if (defining) continue;  // the file's own switch: left as written
      e.replace(i, "__CUDACC__");
      ++e.result().rewrites;
      ++e.pp_rewrites;
    }
  }
}

// 64-lane assumptions: code that is right for a 64-lane wavefront and wrong for a 32-lane warp.
void find_wave64_hazards(Engine& e) {
  for (std::size_t i = 0; i < e.size(); ++i) {
    const auto& t = e.tok(i);
    if (t.has(lex::kInDisabledGroup) || e.is_dropped(i)) continue;
    const std::string_view s = e.text(i);
    if (t.kind == TokenKind::identifier && s == "warpSize") {
      // warpSize == 64, 64 != warpSize, ...: a path for wave64 that CUDA never takes, or takes
      // wrongly where the test is an inequality.
      for (std::size_t k : {i + 2, i >= 2 ? i - 2 : e.size()}) {
        if (k >= e.size() || !is_integer(e.text(k), {"64"})) continue;
        const std::string_view op = e.text(std::min(i, k) + 1);
        if (op == "==" || op == "!=" || op == "<" || op == ">" || op == "<=" || op == ">=")
          e.report(k, Severity::warning, "wave64-assumption",
                   fmt::format("warpSize compared with 64: a path for 64-lane wavefronts; CUDA's warpSize is 32"),
                   "check that the branch for 32 lanes is the one CUDA needs");
      }
      continue;
    }
    if (t.kind != TokenKind::number) continue;
    if (is_integer(s, {"0xffffffffffffffff", "0xFFFFFFFFFFFFFFFF"})) {
      e.report(i, Severity::warning, "wave64-assumption", "a 64-lane full mask: a CUDA warp's full mask is 0xffffffff",
               "use 0xffffffffu, or __activemask() for the lanes that are active");
      continue;
    }
    if (i == 0) continue;
    const std::string_view op = e.text(i - 1);
    const bool lane_math = ((op == "%" || op == "/") && is_integer(s, {"64"})) || (op == "&" && is_integer(s, {"63", "0x3f", "0x3F"})) ||
                           (op == ">>" && is_integer(s, {"6"}));
    if (lane_math && near_lane_index(e, i - 1))
      e.report(i, Severity::warning, "wave64-assumption",
               fmt::format("'{} {}' on a thread or lane index: lane arithmetic for 64-lane wavefronts; a CUDA warp has 32 lanes", op, s),
               "use warpSize (or 32 with & 31, >> 5)");
    // A shuffle whose lane offset is 32 (the first step of a wave64 butterfly, directly or as a
    // for loop's start) reaches past a 32-lane warp.
    if (is_integer(s, {"32"}) && i >= 2) {
      auto is_shuffle = [](std::string_view n) {
        return n == "__shfl_xor" || n == "__shfl_down" || n == "__shfl_xor_sync" || n == "__shfl_down_sync";
      };
      std::string_view shuffle;
      for (std::size_t k = i; k > 0 && i - k < 12 && shuffle.empty(); --k) {
        const std::string_view n = e.text(k - 1);
        if (n == ";" || n == "{" || n == "}") break;
        if (is_shuffle(n)) shuffle = n;
      }
      // for (int offset = 32; ...; offset >>= 1) { ... __shfl_xor(v, offset) ... }
      if (shuffle.empty() && e.is(i - 1, "=")) {
        std::size_t open = i;
        while (open > 0 && i - open < 6 && !e.is(open - 1, "(")) --open;
        if (open >= 2 && e.is(open - 2, "for")) {
          const std::size_t close = e.match(open - 1);
          for (std::size_t k = close; k < e.size() && k < close + 80 && shuffle.empty(); ++k)
            if (is_shuffle(e.text(k))) shuffle = e.text(k);
        }
      }
      if (!shuffle.empty())
        e.report(i, Severity::warning, "wave64-assumption",
                 fmt::format("{} by 32 lanes: the first step of a 64-lane reduction; on a 32-lane warp it reads outside the warp", shuffle),
                 "start the reduction at warpSize / 2 (16)");
    }
  }
}

}  // namespace gpuport::source
