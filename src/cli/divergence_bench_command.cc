// gpuport divergence-bench: writes and builds the k-way divergence microbenchmark, runs it
// (--run, on a machine with an NVIDIA GPU) or reads its saved output (--from-output), and
// prints the fit of T(k) = s*k. Argument handling and printing only; the work is in
// sass/divergence_bench.h.
#include <cstdio>
#include <memory>

#include <fmt/format.h>

#include "cli/commands.h"
#include "common/file_io.h"
#include "common/process.h"
#include "sass/divergence_bench.h"
#include "sass/program.h"

namespace gpuport::cli {
namespace fs = std::filesystem;

namespace {

struct DivergenceBenchArguments {
  std::string out_dir = "divergence-bench";
  std::string arch = "sm_90";
  bool run = false;
  std::string from_output;
  int iterations = 64;
  int repetitions = 5;
};

int fail(int status, const std::string& message) {
  std::fprintf(stderr, "gpuport divergence-bench: %s\n", message.c_str());
  return status;
}

int print_fit(const std::string& output_text) {
  const auto parsed = sass::parse_benchmark_output(output_text);
  for (const auto& e : parsed.errors) std::fprintf(stderr, "gpuport divergence-bench: %s\n", e.c_str());
  const std::string table = sass::format_fit_table(parsed);
  write_stdout(table);
  return parsed.points.empty() ? 1 : 0;
}

int run_divergence_bench(const DivergenceBenchArguments& a) {
  if (!a.from_output.empty()) {
    auto text = read_file(a.from_output, 64u << 20);
    if (!text) {
      for (const auto& d : text.diagnostics()) std::fprintf(stderr, "%s\n", format_diagnostic(d).c_str());
      return 2;
    }
    return print_fit(*text);
  }
  const int arch = sass::parse_arch(a.arch);
  if (arch < 50 || arch > 90) return fail(2, fmt::format("--arch: '{}' is not an arch nvcc 11.8 builds (sm_50..sm_90)", a.arch));
  if (a.iterations < 1 || a.repetitions < 1) return fail(2, "--iterations and --repetitions must be at least 1");

  sass::DivergenceBenchOptions options;
  options.iterations = a.iterations;
  options.repetitions = a.repetitions;
  const fs::path dir = a.out_dir;
  const fs::path source = dir / "divergence_bench.cu";
  const fs::path executable = dir / "divergence_bench";
  if (auto err = write_file_atomic(source, sass::generate_divergence_benchmark(options), {.durable = false}))
    return fail(2, format_diagnostic(*err));
  std::printf("wrote %s\n", source.string().c_str());
  auto built = sass::build_divergence_benchmark(source, executable, arch);
  if (!built.ok) return fail(2, built.message);
  std::printf("built %s (sm_%d)\n", executable.string().c_str(), arch);
  if (!a.run) {
    std::printf("run it on a machine with an NVIDIA GPU: %s > divergence_bench.out\n"
                "then fit: gpuport divergence-bench --from-output divergence_bench.out\n",
                shell_quote(fs::absolute(executable).string()).c_str());
    return 0;
  }
  ProcessOptions po;
  po.timeout = std::chrono::minutes(10);
  auto r = run_process({fs::absolute(executable).string()}, po);
  write_stdout(r.out);
  if (!r.succeeded()) {
    std::string detail = r.err;
    return fail(1, fmt::format("`{}` failed ({}){}{}", r.command_line, r.outcome(), detail.empty() ? "" : ":\n", detail));
  }
  if (auto err = write_file_atomic(dir / "divergence_bench.out", r.out, {.durable = false})) return fail(2, format_diagnostic(*err));
  std::printf("\n");
  return print_fit(r.out);
}

}  // namespace

Action add_divergence_bench_command(CLI::App& app) {
  auto args = std::make_shared<DivergenceBenchArguments>();
  CLI::App* cmd = app.add_subcommand(
      "divergence-bench", "Generate and build a microbenchmark of k-way warp divergence (k = 1..32) and fit T(k) = s*k");
  cmd->footer(
      "Writes DIR/divergence_bench.cu and builds DIR/divergence_bench with Debian's nvcc 11.8 (-O3 -lineinfo).\n"
      "Variants: branch (lane l takes case l % k of a k-way switch) and pred (all k paths as predicated\n"
      "instructions); cycles per warp by clock64, median over warps and repetitions.\n"
      "--run runs it (needs an NVIDIA GPU) and fits; --from-output fits the output of an earlier run.\n"
      "Exit status: 0 ok; 1 the run failed or its output has no points; 2 usage, I/O, nvcc missing or failing.");
  cmd->add_option("--out", args->out_dir, "Folder for the source, the executable and the run's output")
      ->capture_default_str();
  cmd->add_option("--arch", args->arch, "Target arch (sm_50..sm_90; H200 is sm_90)")->capture_default_str();
  cmd->add_flag("--run", args->run, "Run the built benchmark here and print the fit");
  cmd->add_option("--from-output", args->from_output, "Fit the saved output of a run (no build)");
  cmd->add_option("--iterations", args->iterations, "Loop trips per path (8 dependent FMAs each)")
      ->capture_default_str();
  cmd->add_option("--repetitions", args->repetitions, "Timed launches per variant and k")->capture_default_str();
  return [args] { return run_divergence_bench(*args); };
}

}  // namespace gpuport::cli
