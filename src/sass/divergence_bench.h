// `gpuport divergence-bench`: a generated CUDA microbenchmark that measures what k-way warp
// divergence costs (k = 1..32), per warp with clock64(), in two variants:
//   branch: lane l takes case (l % k) of a k-way switch, so the warp runs the k paths one after
//           another (divergence, then reconvergence);
//   pred:   every lane runs all k paths as predicated instructions (@p fma), no branch at all.
// Every path is the same dependent FMA chain (volatile inline PTX with per-case constants, the
// case index read from memory), so the compiler can neither merge nor drop cases. The model is
// T(k) = s*k: the fits are here, the build goes through Debian's nvcc 11.8 (common/nvcc11.h,
// sass/toolchain.h). No I/O beyond the nvcc call in build_divergence_benchmark.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sass/toolchain.h"

namespace gpuport::sass {

struct DivergenceBenchOptions {
  int max_k = 32;            // kernels for k = 1..max_k (at most 32: one warp)
  int iterations = 64;       // loop trips per path; each trip is 8 dependent FMAs
  int repetitions = 5;       // timed launches per (variant, k), after one warm-up launch
  int warps_per_block = 1;   // one warp per block: the time is the warp's own latency
  int blocks = 0;            // 0: one block per SM
};

// The CUDA source (host and device). Its output, one line each:
//   DIVBENCH gpu="<name>" sm=<major*10+minor> sms=<count> iterations=<n> warps=<count> reps=<n>
//   DIVBENCH variant=<branch|pred> k=<k> cycles=<median over warps and repetitions>
// Every CUDA call is checked: on failure it prints "DIVBENCH error: ..." and exits 1.
std::string generate_divergence_benchmark(const DivergenceBenchOptions& options = {});

struct FitResult {
  std::size_t points = 0;
  // Least squares through the origin, T(k) = s*k.
  double slope = 0;
  double r_squared = 0;            // 1 - SS_res/SS_tot, SS_tot about the mean of T (can be < 0)
  std::vector<double> residuals;   // T_i - s*k_i, in input order
  // Least squares with an intercept, T(k) = a + s*k (needs two distinct k).
  double affine_intercept = 0;
  double affine_slope = 0;
  double affine_r_squared = 0;
};

// Fits (k, T) points; fewer than one point (two for the affine fit) leaves the zeros.
FitResult fit_linear_through_origin(const std::vector<std::pair<double, double>>& points);

struct BenchmarkOutput {
  std::string gpu;  // from the gpu="..." line; empty when absent
  int sm = 0;
  // variant ("branch", "pred") -> (k, cycles) in output order.
  std::map<std::string, std::vector<std::pair<double, double>>> points;
  std::vector<std::string> errors;  // "DIVBENCH error" lines and malformed DIVBENCH lines
};

// Reads the benchmark's output; lines that do not start with "DIVBENCH" are ignored.
BenchmarkOutput parse_benchmark_output(std::string_view text);

// The table `gpuport divergence-bench` prints: k, cycles per variant, then per variant the
// slope and r^2 of T = s*k and of T = a + s*k.
std::string format_fit_table(const BenchmarkOutput& output);

// Builds `source` into `executable` with nvcc 11.8 (-O3 -lineinfo -arch=sm_XX), with its
// environment and host include path (common/nvcc11.h). Fails with a message naming what to
// install when nvcc 11.8 or clang-14 is missing (ToolRun::command_line is then empty).
ToolRun build_divergence_benchmark(const std::filesystem::path& source, const std::filesystem::path& executable,
                                   int arch, std::chrono::seconds timeout = std::chrono::seconds(600));

}  // namespace gpuport::sass
