// gpuport latency-bench: writes and builds the SASS latency microbenchmark, checks on its
// disassembly that every timed chain is the intended opcode, runs it (--run, on a machine with an
// NVIDIA GPU) or reads its saved output (--from-output), prints the measurements and writes the
// latency override file for `gpuport tune` (--write-overrides). Argument handling and printing
// only; the work is in tune/latency_bench.h.
#include <cstdio>
#include <memory>

#include <fmt/format.h>

#include "cli/commands.h"
#include "common/file_io.h"
#include "common/process.h"
#include "sass/program.h"
#include "tune/latency_bench.h"

namespace gpuport::cli {
namespace fs = std::filesystem;

namespace {

struct LatencyBenchArguments {
  std::string out_dir = "latency-bench";
  std::string arch = "sm_90";
  bool run = false;
  std::string from_output;
  std::string write_overrides;
  tune::LatencyBenchOptions options;
};

int fail(int status, const std::string& message) {
  std::fprintf(stderr, "gpuport latency-bench: %s\n", message.c_str());
  return status;
}

// Prints the table of one run's output and writes the override file when asked.
int report(const std::string& output_text, const std::string& file, const LatencyBenchArguments& a) {
  const auto parsed = tune::parse_latency_output(output_text, file);
  for (const auto& e : parsed.errors) std::fprintf(stderr, "%s\n", format_diagnostic(e).c_str());
  write_stdout(tune::format_latency_table(parsed));
  if (parsed.measurements.empty()) return 1;
  // A failed or garbled run may lack figures that a partial override file would silently omit.
  if (!parsed.errors.empty())
    return a.write_overrides.empty()
               ? 1
               : fail(1, fmt::format("{} not written: the output has {} error(s)", a.write_overrides,
                                     parsed.errors.size()));
  if (!a.write_overrides.empty()) {
    if (auto err = write_file_atomic(a.write_overrides, tune::write_latency_overrides(parsed), {.durable = false}))
      return fail(2, format_diagnostic(*err));
    write_stdout(fmt::format("wrote {}\n", a.write_overrides));
  }
  return 0;
}

// The timed chains as the disassembly of the built executable shows them (kept in
// DIR/latency_bench.sass). 0: every chain is what it claims; 1: one is not; 2: no check made.
int check_chains(const fs::path& dir, const fs::path& executable, const tune::LatencyBenchOptions& options) {
  const tune::BenchmarkDisassembly sass = tune::disassemble_latency_benchmark(executable);
  if (!sass.ok) {
    std::printf("chains not checked: %s\n", sass.message.c_str());
    return 2;
  }
  const fs::path listing = dir / "latency_bench.sass";
  if (auto err = write_file_atomic(listing, sass.listing, {.durable = false}))
    std::fprintf(stderr, "%s\n", format_diagnostic(*err).c_str());
  const auto evidence = tune::inspect_latency_kernels(sass.program, tune::latency_kernels(options));
  std::printf("timed chains in %s (expected opcodes: instances between the two clock reads):\n",
              listing.string().c_str());
  write_stdout(tune::format_kernel_evidence(evidence));
  for (const auto& e : evidence)
    if (!e.problem.empty()) return 1;
  return 0;
}

int run_latency_bench(const LatencyBenchArguments& a) {
  if (!a.from_output.empty()) {
    auto text = read_file(a.from_output, 64u << 20);
    if (!text) {
      for (const auto& d : text.diagnostics()) std::fprintf(stderr, "%s\n", format_diagnostic(d).c_str());
      return 2;
    }
    return report(*text, a.from_output, a);
  }
  if (!a.write_overrides.empty() && !a.run) return fail(2, "--write-overrides needs --run or --from-output FILE");
  const int arch = sass::parse_arch(a.arch);
  if (arch < 70 || arch > 90)
    return fail(2, fmt::format("--arch: '{}' is not an arch nvcc 11.8 builds for tune (sm_70..sm_90)", a.arch));
  tune::LatencyBenchOptions o = a.options;
  o.arch = arch;
  if (o.links < 16 || o.links > 16384 || o.memory_links < 1 || o.memory_links > 4096)
    return fail(2, "--links must be 16..16384 and --memory-links 1..4096");
  if (o.repetitions < 1 || o.warps < 1) return fail(2, "--repetitions and --warps must be at least 1");

  const fs::path dir = a.out_dir;
  const fs::path source = dir / "latency_bench.cu";
  const fs::path executable = dir / "latency_bench";
  if (auto err = write_file_atomic(source, tune::generate_latency_benchmark(o), {.durable = false}))
    return fail(2, format_diagnostic(*err));
  std::printf("wrote %s\n", source.string().c_str());
  auto built = tune::build_latency_benchmark(source, executable, arch);
  if (!built.ok) return fail(2, built.message);
  std::printf("built %s (sm_%d)\n", executable.string().c_str(), arch);
  std::fflush(stdout);
  const int chains = check_chains(dir, executable, o);
  std::fflush(stdout);
  if (chains == 1)
    return fail(1, "a timed chain is not the opcode it measures (see above); its figure would be wrong");
  if (!a.run) {
    std::printf("run it on a machine with an NVIDIA GPU: %s > latency_bench.out\n"
                "then: gpuport latency-bench --from-output latency_bench.out [--write-overrides latency-sm_%d.tsv]\n",
                shell_quote(fs::absolute(executable).string()).c_str(), arch);
    return 0;
  }
  ProcessOptions po;
  po.timeout = std::chrono::minutes(10);
  auto r = run_process({fs::absolute(executable).string()}, po);
  write_stdout(r.out);
  if (!r.succeeded()) {
    std::string detail = r.err;
    return fail(1, fmt::format("`{}` failed ({}){}{}", r.command_line, r.outcome(), detail.empty() ? "" : ":\n",
                               detail));
  }
  const fs::path saved = dir / "latency_bench.out";
  if (auto err = write_file_atomic(saved, r.out, {.durable = false})) return fail(2, format_diagnostic(*err));
  std::printf("\n");
  return report(r.out, saved.string(), a);
}

}  // namespace

Action add_latency_bench_command(CLI::App& app) {
  auto args = std::make_shared<LatencyBenchArguments>();
  CLI::App* cmd = app.add_subcommand(
      "latency-bench", "Generate and build a microbenchmark of SASS instruction latencies (calibrates `gpuport tune`)");
  cmd->footer(
      "Writes DIR/latency_bench.cu and builds DIR/latency_bench with Debian's nvcc 11.8 (-O3), then checks on\n"
      "its disassembly that each kernel's timed chain is the opcode it measures. Each kernel times, with\n"
      "clock64 in one warp, a chain of dependent operations (latency; LDG also l2 and dram) or the same\n"
      "operations on independent accumulators (throughput); cycles per link, median over warps and\n"
      "repetitions, minus an empty timing.\n"
      "--run runs it (needs an NVIDIA GPU); --from-output prints the table of an earlier run's output;\n"
      "--write-overrides FILE writes the measured latency column (OPCODE<TAB>cycles) for `gpuport tune`.\n"
      "Exit status: 0 ok; 1 the run failed, its output has errors or no measurements, or a timed chain is\n"
      "not its opcode; 2 usage, I/O, nvcc missing or failing.");
  cmd->add_option("--out", args->out_dir, "Folder for the source, the executable and the run's output")
      ->capture_default_str();
  cmd->add_option("--arch", args->arch, "Target arch (sm_70..sm_90; H200 is sm_90)")->capture_default_str();
  cmd->add_flag("--run", args->run, "Run the built benchmark here and print the table");
  cmd->add_option("--from-output", args->from_output, "Print the table of a saved run's output (no build)");
  cmd->add_option("--write-overrides", args->write_overrides,
                  "With --run or --from-output: write the latency override file (data/tune/latency-sm_90.tsv style)");
  cmd->add_option("--links", args->options.links, "Dependent operations per timed ALU chain")->capture_default_str();
  cmd->add_option("--memory-links", args->options.memory_links, "Dependent loads per timed memory chain")
      ->capture_default_str();
  cmd->add_option("--repetitions", args->options.repetitions, "Timed chains per launch (after a warm-up one)")
      ->capture_default_str();
  cmd->add_option("--warps", args->options.warps, "Launches of one warp, one at a time")->capture_default_str();
  return [args] { return run_latency_bench(*args); };
}

}  // namespace gpuport::cli
