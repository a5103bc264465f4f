// `gpuport verify`: proves translations by building and running them. For each self-checking
// CUDA program: (1) build the original with nvcc, (2) translate it to HIP, (3) compile and link
// the HIP for AMD gfx1100 with clang-19, (4) build the HIP on HIP's NVIDIA platform with nvcc,
// (5) where a GPU is present run original and translated binaries and compare their RESULT
// lines and timings. Nothing is reported as passed that did not run.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "maps/api_map.h"
#include "verify/compile_check.h"

namespace gpuport::verify {

enum class StepStatus : std::uint8_t { ok, failed, skipped, not_run };
std::string_view step_status_name(StepStatus status);

struct StepResult {
  StepStatus status = StepStatus::not_run;
  bool cached = false;     // the output came from the content-hash cache
  std::string command;     // the exact command (or what was done)
  std::string message;     // compiler output on failure, or why it was skipped
  double seconds = 0.0;
};

// One program's RESULT line: RESULT <name> PASS|FAIL max_rel_err=<x> gpu_ms=<t>
struct ResultLine {
  std::string name;
  bool pass = false;
  double max_rel_err = 0.0;
  double gpu_ms = 0.0;
};
std::optional<ResultLine> parse_result_line(std::string_view output);

enum class RunOutcome : std::uint8_t { not_run, passed, failed, crashed, timed_out, no_result, not_started };
std::string_view run_outcome_name(RunOutcome outcome);

struct RunResult {
  RunOutcome outcome = RunOutcome::not_run;
  std::optional<ResultLine> result;
  int exit_code = -1;
  std::string detail;       // how it ended, in words
  std::string output_tail;  // last lines of stdout+stderr
  double seconds = 0.0;
};

// Runs a program binary and classifies how it ended: PASS needs both the RESULT line and exit 0.
// `environment` adds to (or, with nullopt, removes from) the inherited environment; `launcher`
// is put before the binary (`gpuport run`).
RunResult run_program(const std::filesystem::path& binary, std::chrono::milliseconds timeout,
                      const std::map<std::string, std::optional<std::string>>& environment = {},
                      const std::vector<std::string>& launcher = {});

// `verify --asm`: the program's NVIDIA machine code for one architecture translated by `gpuport
// asm` to gfx1100, linked with the HIP host code of the source translation, and run on the emulator.
struct AsmPath {
  int arch = 0;               // sm_XX of the cubin that was translated
  StepResult cubin;           // nvcc 11.8 -cubin
  StepResult translate;       // gpuport asm (lift + LLVM AMDGPU)
  StepResult link;            // clang-19 host code with the translated device code
  RunResult run;              // on gpuport's emulator (AMD semantics, emulated)
};

struct ProgramReport {
  std::string name;    // file name without extension
  std::string domain;  // the folder it lives in
  std::string source;
  StepResult build_original;
  StepResult translate;
  StepResult compile_amd;
  StepResult build_hip_nvidia;
  RunResult run_original;
  RunResult run_translated;
  RunResult run_emulated;  // the gfx1100 build on gpuport's emulator (--emulate): AMD semantics, emulated
  StepResult compile_amd_wave64;  // --emulate: the same build with -mwavefrontsize64
  RunResult run_emulated_wave64;
  std::vector<AsmPath> asm_paths;      // --asm: one per architecture
  std::string hip_unit;                // the translated unit (empty when translation wrote none)
  std::vector<std::string> hip_files;  // it and the translated headers it includes
  std::string verdict;                 // "passed", "failed: ...", "not run: no GPU", ...
  std::optional<double> runtime_ratio;  // translated gpu_ms / original gpu_ms
  bool built() const;
  bool passed() const { return verdict == "passed"; }
};

struct VerifyOptions {
  CompileCheckOptions compilers;  // clang-19, nvcc 11.8, device libraries, nvidia_arch
  unsigned jobs = 1;
  std::filesystem::path work_dir = "build/verify";
  std::filesystem::path cache_dir;  // empty: work_dir/cache
  bool use_cache = true;
  bool run = true;                        // run where a GPU is present
  // Run the gfx1100 build on gpuport's emulator (`gpuport run`'s runtime in this folder), with
  // CORPUS_EMULATED=1 so that corpus programs pick their emulation-sized workloads.
  bool emulate = false;
  std::filesystem::path emulator_runtime;
  // How a program that links ROCm's libraries (hipBLAS, hipFFT, ...) is started on the emulator:
  // `gpuport run`, which starts it with sid's loader beside those libraries. Empty: directly.
  std::vector<std::string> emulator_launcher;
  // The machine-code path (`gpuport asm`) for these NVIDIA architectures (80, 90); empty: off.
  // Its runs need the emulator (they are reported as emulated, never as an AMD GPU).
  std::vector<int> asm_archs;
  std::optional<bool> gpu_present;        // override detection
  std::chrono::milliseconds run_timeout{std::chrono::seconds(120)};
  std::chrono::milliseconds build_timeout{std::chrono::minutes(10)};
};

struct VerifyReport {
  std::vector<ProgramReport> programs;
  bool gpu = false;
  bool run_requested = true;  // false with --no-run
  bool emulated = false;      // --emulate
  std::vector<int> asm_archs;  // --asm
  std::string gpu_note;  // which GPU, or why there is none
  std::vector<std::string> errors;  // inputs that could not be read
  bool all_ok() const;
};

// Is an NVIDIA GPU usable here? `note` names it or says why not.
bool detect_gpu(std::string& note);

// The .cu programs under the inputs (folders recursively; include/ folders hold headers).
std::vector<std::filesystem::path> find_programs(const std::vector<std::filesystem::path>& inputs,
                                                 std::vector<std::string>& errors);

using VerifyProgress = std::function<void(const ProgramReport&, std::size_t done, std::size_t total)>;

VerifyReport verify_programs(const std::vector<std::filesystem::path>& inputs, const maps::ApiMap& map,
                             const VerifyOptions& options, const VerifyProgress& progress = {});

std::string format_table(const VerifyReport& report);
nlohmann::json to_json(const VerifyReport& report);
std::string to_html(const VerifyReport& report);

}  // namespace gpuport::verify
