// `gpuport run` as a library call: starts a HIP program built for gfx1100 with the emulator's HIP
// runtime (for the ABI it was linked against: HIP 5 or HIP 6) first on its library path, through
// the project's process runner (a process group of its own, the terminal handed to it, killed
// with gpuport by any signal), its output passing straight through, and collects what the
// runtime reports (per-kernel statistics, memcheck and initcheck findings) from files in a
// private temporary folder, removed afterwards.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "common/diagnostic.h"

namespace gpuport::emu {

struct ProgramRunRequest {
  std::vector<std::string> command;     // the program and its arguments
  std::filesystem::path runtime_dir;    // holds the emulator's libamdhip64.so.5 and .so.6
  // sid's ROCm 6.4 libraries and the glibc they need (scripts/fetch-rocm-6.4-libs); a program
  // that links one of them starts with that glibc's loader.
  std::filesystem::path library_dir;
  std::filesystem::path device_lib_dir; // gfx1100 device libraries, for the runtime's hipRTC
  unsigned jobs = 0;                    // host threads for workgroups; 0: the runtime's default
  double timeout_seconds = 0;           // per kernel launch; 0: none
  std::uint64_t max_instructions = 0;   // per wave (--max-instructions); 0: none
  bool wave64 = false, stats = false, memcheck = false, initcheck = false;
  int trace_lane = -1;                  // --trace: this lane of wave 0 of workgroup 0; -1: off
  std::string jit;                      // --jit: never, hot, always (empty: the runtime's default, hot)
  std::string jit_cache;                // --cache: a folder for compiled kernels (empty: none)
  std::string jit_helper;               // the gpuport executable whose jit-compile compiles hot kernels (empty: in the program)
};

struct ProgramRunResult {
  std::vector<Diagnostic> diagnostics;  // could not start it (the program's own failures are its exit status)
  int exit_status = 0;                  // the program's, or 128 + the signal that ended it
  int signal = 0;
  std::string stats;                    // the runtime's per-kernel table, with --stats
  std::size_t findings = 0;             // memcheck / initcheck findings
  bool ok() const { return !has_errors(diagnostics); }
};

// Lanes a --trace may name: a wave has at most 64.
inline constexpr int kMaxTraceLane = 63;

ProgramRunResult run_emulated_program(const ProgramRunRequest& request);

// What a program loads, read once from its file before it starts: the emulator runtime for the
// libamdhip64 it, or a library of its own, names in DT_NEEDED (.so.5 for HIP 5, .so.6 for HIP 6;
// .so.5 when none does), and, for a HIP 6 program that links one of data/emu/rocm-6.4-
// libraries.tsv's libraries, sid's loader in `library_dir` (those need sid's glibc). An error
// when the program cannot run on the emulator: not a readable ELF executable, device code
// without gfx1100, neither device code of its own nor a link to HIP's runtime, or a ROCm library
// that is not unpacked (named with the command that fetches it).
struct ProgramLinks {
  std::string runtime;
  std::filesystem::path loader;  // empty: the system's
};
Result<ProgramLinks> examine_program(const std::string& program, const std::filesystem::path& library_dir);

}  // namespace gpuport::emu
