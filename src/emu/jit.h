// The emulator's second tier: a prepared kernel compiled to host code. The lifter (lift.cc) turns
// every step of the kernel into LLVM IR: the instructions whose per-lane meaning lanes.h holds
// become lane loops that LLVM vectorizes, branches become branches, and every other step becomes
// a call to the interpreter's own handler, so that any kernel the interpreter runs can be
// compiled. ORC's LLJIT (jit.cc) optimises the module for the host CPU and keeps the code,
// cached by the kernel's content. The compiled code runs on the interpreter's wave state and
// stops where the interpreter would look up from its loop (every 32 instructions of a
// multi-wave workgroup, 1024 without LDS, every 65536, a barrier, the end), so that both tiers interleave waves
// identically and compute the same memory, faults and counts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "emu/machine.h"

namespace gpuport::emu {

struct PreparedKernel;

// What compiled code reads and writes: the wave's state by pointer, the step limit in, the
// steps and lane-instructions it ran out. Every field is 8 bytes (the lifter indexes them).
struct JitFrame {
  Wave* wave;
  Context* context;
  const Step* steps;
  std::uint32_t* v;
  std::uint32_t* s;
  bool* scc;
  std::uint32_t* mode;
  bool* leave;
  std::size_t* pc;
  std::uint64_t* region_begin;  // the context's last region hit by a global access
  std::uint64_t* region_end;
  std::uint8_t* lds;            // the workgroup's LDS and its size
  std::uint64_t lds_size;
  // Steps to run before stopping: it stops at the first step at or past it that is no fused
  // run's interior (a run is run whole).
  std::uint64_t limit;
  std::uint64_t executed;  // steps completed (a faulting step is not)
  std::uint64_t lanes;     // lane-instructions: EXEC's population before each step run
  std::uint64_t* regions;  // the context's per-step regions (Context::jit_regions)
  std::uint64_t image_base;  // the code object's load address (Context::image_base: s_getpc_b64)
};
static_assert(sizeof(JitFrame) == 18 * 8);

// Runs the wave from step `pc`: 0 when it stopped (the limit, the wave left its loop: *pc is the
// next step), 1 on a fault (*pc is the faulting step, the context's fault says what), 2 when
// the step at *pc is the interpreter's to run: no step of the compiled code (outside the kernel,
// or inside a fused run, which a jump by address may reach), or a run in a float mode other than
// the default.
using JitEntry = int (*)(JitFrame* frame, std::uint64_t pc);

enum class JitMode : std::uint8_t {
  never,   // the interpreter only
  hot,     // a kernel is compiled once the interpreter has run it for kJitHotInstructions (more
           // for a kernel of more than 64 steps: 32768 per step with the compile helper, 65536
           // per step without, when the compile stops the wave)
  always,  // every kernel is compiled before it first runs
};
constexpr std::uint64_t kJitHotInstructions = 4u << 20;  // wave-instructions

// "never", "hot", "always" (also "auto" for hot); false for anything else.
bool parse_jit_mode(std::string_view text, JitMode& mode);

// The compiled code for `kernel`, compiling it if needed (once per kernel; the same code is
// reused for any kernel with the same instructions and wave size). Null when it cannot be
// compiled; `error` (if given) says why. Thread-safe.
JitEntry jit_compile(const PreparedKernel& kernel, std::string* error = nullptr);

// JitMode::hot's compile: the compiled code if there is one (made, or in the cache folder); else,
// with a compile helper set, the kernel is lifted here and compiled by the helper process while
// the caller goes on interpreting (`waiting` true; call again to link the code once the helper
// is done); without one (or if it cannot start), as jit_compile. `waiting` true on entry: the
// caller is polling, and gets null with `waiting` still true if the JIT is busy. Thread-safe.
JitEntry jit_compile_hot(const PreparedKernel& kernel, std::string* error, bool& waiting);
// The gpuport executable whose `jit-compile` compiles for jit_compile_hot (gpuport run sets it
// through GPUPORT_RUN_JIT_HELPER); empty: compile in this process.
void jit_set_compile_helper(const std::string& path);
// Whether jit_compile_hot compiles `kernel` in the helper: one is set and the kernel has at least
// kJitHelperSteps instructions of its own (a smaller one compiles here sooner than the helper
// starts: GPU-STREAM's four 30-60-step kernels took 0.45 s here, 0.9 s in the helper).
constexpr std::size_t kJitHelperSteps = 256;
bool jit_compiles_in_helper(const PreparedKernel& kernel);
// `gpuport jit-compile --parent PID`: a lifted kernel's bitcode on standard input, optimised and
// compiled for this host as jit_compile would, its object file on standard output; leaves when
// process PID is no longer its parent. The exit status.
int jit_compile_helper_main(int parent);

// Seconds spent compiling in this process, kernels compiled, taken from the in-memory cache
// (reused) and loaded from the cache folder (with the seconds that took).
struct JitTotals {
  double compile_seconds = 0, load_seconds = 0;
  std::uint64_t compiled = 0, reused = 0, loaded = 0;
  std::uint64_t background = 0;  // of `compiled`, by the helper process (seconds: from its start to the link)
  std::string cache_failure;  // the first write to the cache folder that failed
};
JitTotals jit_totals();

// Keeps compiled kernels' object files in `dir` (an existing folder; empty: none) and loads them
// from there in later processes, keyed by a hash of the kernel, the host CPU and this build.
void jit_set_cache_dir(const std::string& dir);

}  // namespace gpuport::emu
