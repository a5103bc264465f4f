// gpuport tune: reschedules a kernel's SASS inside its basic blocks and keeps what the GPU
// measures faster. Argument handling and printing only; the work is in tune/tune.h.
#include <cstdio>
#include <memory>

#include <fmt/format.h>

#include "cli/commands.h"
#include "sass/program.h"
#include "tune/tune.h"

namespace gpuport::cli {
namespace fs = std::filesystem;

namespace {

struct TuneArguments {
  std::string input;
  std::string kernel;
  std::string arch = "sm_90";
  std::string output;
  std::string prepare_dir, measure_dir, work_dir;
  int candidates = 8;
  int steps = 20000;
  double search_s = 120;
  int repeat = 21;
  double budget_s = 120;
  std::uint64_t seed = 1;
  std::vector<std::string> nvcc_flags;
  std::vector<std::string> program_args;
  std::string calibration;
  std::string latencies;
};

int fail(int status, const std::string& message) {
  std::fprintf(stderr, "gpuport tune: %s\n", message.c_str());
  return status;
}

int print_diagnostics(const std::vector<Diagnostic>& diagnostics) {
  for (const Diagnostic& d : diagnostics) std::fprintf(stderr, "%s\n", format_diagnostic(d).c_str());
  return has_errors(diagnostics) ? 2 : 0;
}

std::string prepare_summary(const tune::PrepareResult& r, const fs::path& dir) {
  std::string out = fmt::format("kernel {}: {} instructions in {} blocks ({} with room to move), {} dependences\n", r.kernel,
                                r.instructions, r.blocks, r.movable_blocks, r.dependences);
  out += fmt::format("{} candidates, each proved by re-disassembly (nvdisasm) and cuobjdump -elf:\n", r.candidates.size());
  for (const tune::PreparedCandidate& c : r.candidates) {
    out += fmt::format("  {}  model {:+.1f}%  {} moved  {}  ({} stalls raised, {} reuse flags cleared, {} .nv.info offsets, "
                       "{} relocations)\n",
                       c.candidate.id, 100 * c.candidate.model_gain, c.candidate.moved, c.candidate.strategy, c.stalls_written,
                       c.reuse_cleared, c.nvinfo_offsets, c.relocations);
    for (std::size_t i = 0; i < c.moves.size() && i < 3; ++i) out += "      " + c.moves[i] + "\n";
  }
  for (const std::string& why : r.rejected) out += "  rejected " + why + "\n";
  out += r.program_note + "\n";
  out += fmt::format("prepared {}\n", dir.string());
  return out;
}

int run_tune(const TuneArguments& a) {
  if (!a.measure_dir.empty()) {
    if (a.output.empty()) return fail(2, "--measure needs -o FILE for the tuned cubin");
    tune::MeasureResult m = tune::measure_tuning(a.measure_dir, a.output);
    if (!m.ok()) return print_diagnostics(m.diagnostics);
    write_stdout(m.report);
    return 0;
  }
  if (a.input.empty()) return fail(2, "give the program (.cu) or a cubin to tune");
  const int arch = sass::parse_arch(a.arch);
  if (arch < 70 || arch > 90) return fail(2, fmt::format("--arch: '{}' is not one of sm_70..sm_90", a.arch));
  if (a.candidates < 1 || a.steps < 1 || a.repeat < 3 || a.budget_s <= 0 || a.search_s <= 0)
    return fail(2, "--candidates and --steps must be at least 1, --repeat at least 3, --budget-s and --search-s positive");
  if (a.prepare_dir.empty() && a.output.empty()) return fail(2, "give -o FILE for the tuned cubin, or --prepare DIR");
  tune::TuneRequest request;
  request.input = a.input;
  request.kernel = a.kernel;
  request.arch = arch;
  request.candidates = a.candidates;
  request.search_steps = a.steps;
  request.search_seconds = a.search_s;
  request.seed = a.seed;
  request.repeat = a.repeat;
  request.nvcc_flags = a.nvcc_flags;
  request.program_args = a.program_args;
  request.calibration = a.calibration;
  request.latencies = a.latencies;
  request.work_dir = !a.prepare_dir.empty() ? fs::path(a.prepare_dir)
                     : !a.work_dir.empty()  ? fs::path(a.work_dir)
                                            : fs::path(a.output + ".tune");
  tune::PrepareResult prepared = tune::prepare_tuning(request);
  if (print_diagnostics(prepared.diagnostics) != 0) return 2;
  write_stdout(prepare_summary(prepared, request.work_dir));
  if (!a.prepare_dir.empty()) {
    write_stdout(fmt::format("on a machine with an NVIDIA GPU, from the repository root: scripts/device/tune_check.sh {}\n"
                             "then: gpuport tune --measure {} -o tuned.cubin\n",
                             request.work_dir.parent_path().empty() ? "." : request.work_dir.parent_path().string(),
                             request.work_dir.string()));
    return 0;
  }
  if (prepared.candidates.empty()) return fail(1, "no candidate to measure: the model found no faster legal order");
  tune::RunResult run = tune::run_prepared(request.work_dir, a.budget_s);
  if (run.no_gpu)
    return fail(3, fmt::format("{}; nothing written to {}. The prepared folder {} runs on a GPU machine with "
                               "scripts/device/tune_check.sh; then gpuport tune --measure {} -o {}",
                               run.message, a.output, request.work_dir.string(), request.work_dir.string(), a.output));
  if (!run.ok) return fail(1, run.message);
  write_stdout(run.output);
  tune::MeasureResult m = tune::measure_tuning(request.work_dir, a.output);
  if (!m.ok()) return print_diagnostics(m.diagnostics);
  write_stdout(m.report);
  return 0;
}

}  // namespace

Action add_tune_command(CLI::App& app) {
  auto args = std::make_shared<TuneArguments>();
  CLI::App* cmd = app.add_subcommand("tune", "Reorder a kernel's SASS inside basic blocks and keep what the GPU measures faster");
  cmd->footer(
      "Every candidate order keeps the kernel's dependences (registers, predicates, scoreboards, memory that may\n"
      "alias, barriers) and issue distances, and is proved by disassembling the rewritten cubin. A cost model of the\n"
      "SM ranks orders on the CPU; the GPU measures the best few against the original (outputs checked, L2 flushed,\n"
      "median of --repeat launches, candidates interleaved), and only a measured win beyond the noise is kept.\n"
      "Without a GPU here: --prepare DIR, run scripts/device/tune_check.sh on a GPU machine, then --measure DIR.\n"
      "Exit status: 0 ok; 1 the GPU run failed or nothing to measure; 2 usage, input or tool errors; 3 no GPU here.");
  cmd->add_option("input", args->input, "The program (.cu, built with nvcc 11.8) or a cubin");
  cmd->add_option("--kernel", args->kernel, "The kernel: its mangled name, or text naming exactly one kernel");
  cmd->add_option("--arch", args->arch, "Target arch for a .cu input (sm_70..sm_90; H200 is sm_90)")->capture_default_str();
  cmd->add_option("-o,--output", args->output, "The tuned cubin (the original when nothing measured faster)");
  cmd->add_option("--prepare", args->prepare_dir, "Only prepare this folder for a GPU machine");
  cmd->add_option("--measure", args->measure_dir, "Read a prepared folder's measurements and write -o");
  cmd->add_option("--work", args->work_dir, "The working folder (default: OUTPUT.tune)");
  cmd->add_option("--candidates", args->candidates, "Candidates the GPU measures")->capture_default_str();
  cmd->add_option("--steps", args->steps, "Annealing steps of the search, per start")->capture_default_str();
  cmd->add_option("--seed", args->seed, "Seed of the search")->capture_default_str();
  cmd->add_option("--search-s", args->search_s, "Most seconds the search on the CPU may take")->capture_default_str();
  cmd->add_option("--repeat", args->repeat, "Timed launches per candidate")->capture_default_str();
  cmd->add_option("--budget-s", args->budget_s, "Most seconds the GPU step may take")->capture_default_str();
  cmd->add_option("--nvcc-flag", args->nvcc_flags, "Extra flag for building the program (repeatable)");
  cmd->add_option("--run-arg", args->program_args, "Argument for the program's run (repeatable)");
  cmd->add_option("--latencies", args->latencies,
                  "Measured latencies (gpuport latency-bench --write-overrides) for the distance bounds and the model");
  cmd->add_option("--calibration", args->calibration,
                  "calibration.json of an earlier --measure: rank the next batch with the recalibrated model");
  return [args] { return run_tune(*args); };
}

}  // namespace gpuport::cli
