// Hand-written gfx1100 assembly run on the emulator, for instruction-level tests of forms clang
// does not emit on demand (DPP row masks, op_sel, edge cases of one instruction). A test writes
// the body of a kernel; the harness wraps it in a complete kernel (descriptor and metadata),
// assembles it with llvm-mc-19 and links it with ld.lld-19 into a code object, and runs it.
//
// The kernel every body runs in:
//   arguments  in (global pointer), out (global pointer), aux (global pointer), n (u32)
//   on entry   s[0:1] kernarg pointer, s2 workgroup id x, v0 workitem id x (the prologue also
//              loads: s[4:5] = in, s[6:7] = out, s[8:9] = aux, s10 = n, v1 = 4 * workitem id x)
//   registers  the body may use s[11:99] and v[2:vgprs-1] freely, and s[0:10], v0, v1 too
// A body that wants 64-bit data per lane computes its own offsets (v_lshlrev_b32 v1, 3, v0).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "amdgpu/code_object.h"
#include "amdgpu/decode.h"
#include "emu/interpreter.h"

namespace gpuport::emu::testing {

struct AsmKernel {
  std::string body;
  bool wave64 = false;
  unsigned vgprs = 64;                // .amdhsa_next_free_vgpr
  unsigned lds_bytes = 0;             // static LDS
  unsigned scratch_bytes = 0;         // per lane
  unsigned float_denorm_32 = 3;       // .amdhsa_float_denorm_mode_32 (3: keep denormals, 0: flush)
  unsigned float_denorm_16_64 = 3;
  bool ieee_mode = true, dx10_clamp = true;
  bool prologue = true;               // false: the body starts at the kernel's first instruction
};

// The outcome of one run: the buffers after the kernel, or why it did not run.
struct AsmRun {
  std::string skip_reason;            // the tools are missing (the test reports SKIPPED)
  std::string error;                  // assembly, loading, preparation or a fault in the run
  std::vector<std::uint32_t> out, aux;
  RunStats stats;
  RunStats jit_stats;  // the JIT tier's first run (JitMode::hot with AsmLaunch::jit_hot)
};

struct AsmLaunch {
  std::vector<std::uint32_t> in;      // copied into the `in` buffer (at least one word)
  std::size_t out_words = 64;         // size of `out`, zero-filled unless out_init is given
  std::vector<std::uint32_t> out_init;
  std::vector<std::uint32_t> aux;     // `aux` buffer contents (at least one word)
  std::uint32_t groups = 1, threads = 32;
  std::uint32_t n = 0;                // the fourth argument
  unsigned jobs = 1;
  std::uint64_t max_instructions = 0;  // Launch::max_instructions (per wave; 0: no limit)
  // Nonzero: the JIT tier's run is JitMode::hot with this threshold (the kernel compiled in the
  // middle of the launch, which goes on compiled), and a third run takes the compiled code from
  // its start; both are compared with the interpreter's.
  std::uint64_t jit_hot = 0;
  // With jit_hot: the compile goes to the helper process (build/bin/gpuport jit-compile) while
  // the interpreter goes on; the third run waits for the helper's code first.
  bool compile_helper = false;
};

// Assembles and runs; never throws.
AsmRun run_asm(const AsmKernel& kernel, const AsmLaunch& launch);

// The complete assembly source the harness makes for `kernel` (for messages).
std::string asm_source(const AsmKernel& kernel);

}  // namespace gpuport::emu::testing
