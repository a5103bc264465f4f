// `gpuport tune` as library calls: prepare (here, on the CPU: build the cubin, analyse the
// kernel, search, write each candidate cubin and prove it by re-disassembly, build the program
// with the launch capture, and lay out a folder a GPU machine runs with one script) and measure
// (read the GPU's measurements back, keep the fastest candidate only when it beats the original
// beyond the noise, recalibrate the cost model). The GPU step itself is the harness in
// tune/device/ (scripts/device/tune_check.sh runs it), or run_prepared() on a machine with a GPU.
// Promise: a candidate is written only after its proof; the output cubin is either a measured
// winner or the original, never a model's guess.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "common/diagnostic.h"
#include "tune/measure_stats.h"
#include "tune/search.h"

namespace gpuport::tune {

struct TuneRequest {
  std::filesystem::path input;    // prog.cu (built with nvcc 11.8) or kernel.cubin
  std::string kernel;             // mangled name, or text that names exactly one entry
  int arch = 90;
  int candidates = 8;
  int search_steps = 20000;
  double search_seconds = 120;    // the search's time limit
  std::uint64_t seed = 1;
  int repeat = 21;                // timed launches per candidate on the GPU
  std::filesystem::path work_dir; // the prepared folder
  std::vector<std::string> program_args;  // arguments for the program's run (capture)
  std::vector<std::string> nvcc_flags;    // extra flags for building prog.cu
  // calibration.json of an earlier --measure: the model's latency scales fitted to that batch's
  // measurements, so that the next batch is ranked by the recalibrated model.
  std::filesystem::path calibration;
  // Measured latencies (gpuport latency-bench --write-overrides) for the distance bounds and
  // the cost model, in place of data/tune/opcodes.tsv's.
  std::filesystem::path latencies;
};

// The latency scales of a calibration.json written by measure_tuning.
Result<CostModel> read_calibration(const std::filesystem::path& file);

struct PreparedCandidate {
  Candidate candidate;
  std::string file;  // relative to the work dir: candidates/c01.cubin
  std::size_t reuse_cleared = 0, stalls_written = 0, nvinfo_offsets = 0, relocations = 0;
  std::vector<std::string> moves;  // "LDG.E R4, [R2.64] ;  /*0120*/ -> /*00e0*/", the moved instructions
};

struct PrepareResult {
  std::vector<Diagnostic> diagnostics;
  std::string kernel;              // the mangled name
  std::size_t instructions = 0, blocks = 0, movable_blocks = 0, dependences = 0;
  double original_cycles = 0;
  std::vector<PreparedCandidate> candidates;
  std::vector<std::string> rejected;  // candidates whose proof failed (a bug if ever seen), with why
  bool program_built = false;         // prog.cu: the program with the capture hook
  std::string program_note;           // why not, or what was built
  bool ok() const { return !has_errors(diagnostics); }
};

PrepareResult prepare_tuning(const TuneRequest& request);

// Runs the prepared folder's GPU step here (the program with the capture, then the harness),
// as scripts/device/tune_check.sh does on a lent machine. Exit status 3 from the harness means
// this machine has no CUDA driver or GPU: `no_gpu` is set and nothing else is wrong.
struct RunResult {
  bool ok = false;
  bool no_gpu = false;
  std::string message;
  std::string output;  // the harness's table
};
RunResult run_prepared(const std::filesystem::path& work_dir, double budget_s = 600);

struct MeasuredCandidate {
  std::string id, strategy, status, detail;
  double model_gain = 0;
  double median_us = 0, mad_us = 0;
  double gain = 0;  // original median / candidate median - 1
  std::size_t moved = 0;
  std::vector<std::string> moves;
};

struct MeasureResult {
  std::vector<Diagnostic> diagnostics;
  std::string kernel;
  double original_us = 0, original_mad_us = 0;
  std::vector<MeasuredCandidate> candidates;
  std::string chosen;          // the id kept, or "original"
  double chosen_gain = 0;
  double calibration_error_before = 0, calibration_error_after = 0;
  std::string report;          // the text printed to the user
  bool ok() const { return !has_errors(diagnostics); }
};

// Reads work_dir/tune.json and work_dir/measurements.tsv, writes `output` (the winner's cubin
// or a copy of the original) atomically and work_dir/calibration.json.
MeasureResult measure_tuning(const std::filesystem::path& work_dir, const std::filesystem::path& output);

// A candidate is kept only when it beats the original by more than this fraction and by more
// than three times the larger of the two median absolute deviations.
inline constexpr double kMinimumGain = 0.01;

}  // namespace gpuport::tune
