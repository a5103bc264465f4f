// Runs gfx1100 kernels: a kernel is prepared once (every decoded instruction resolved to its
// semantic handler, branch targets to step indexes; anything unimplemented is an error naming
// the kernel, byte offset and instruction), then dispatched over a grid. Workgroups run on host
// threads; the waves of one workgroup run on one thread, switching at s_barrier.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "amdgpu/code_object.h"
#include "amdgpu/decode.h"
#include "common/diagnostic.h"
#include "emu/jit.h"
#include "emu/machine.h"

namespace gpuport::emu {

// A kernel ready to run: its own instructions first (step 0 is the entry), then those of every
// device function of the code object that is not a kernel (the callees that s_swappc_b64 and
// s_setpc_b64 reach by address).
struct PreparedKernel {
  const amdgpu::CodeObject* code_object = nullptr;
  const amdgpu::Kernel* kernel = nullptr;
  amdgpu::KernelCode code;  // the kernel's instructions, then the functions'
  std::size_t kernel_instructions = 0;
  std::vector<Step> steps;
  std::unordered_map<std::uint64_t, std::uint32_t> step_at;  // image address -> step index
  // Instructions of callee functions that the emulator does not implement: each stops the
  // kernel if it is reached (a kernel's own unimplemented instructions refuse it at preparation).
  std::vector<std::string> unimplemented_in_functions;
  bool wave64 = false;
  // It uses global wave sync (ds_gws_*): every workgroup of its grid must be resident at once.
  bool uses_global_wave_sync = false;
  // The steps every wave runs, whatever its data: those up to the first branch, end or jump.
  std::uint64_t entry_steps = 0;

  // The JIT tier (jit.h): the compiled code once made (shared by every launch), whether
  // compiling was tried, why it failed, and how many wave-instructions the interpreter has run
  // of this kernel (JitMode::hot compiles past kJitHotInstructions).
  mutable std::atomic<JitEntry> jit_entry{nullptr};
  mutable std::atomic<bool> jit_tried{false};
  mutable std::atomic<bool> jit_waiting{false};  // the compile helper is at work on it
  mutable std::atomic<std::uint64_t> interpreted{0};
  mutable std::string jit_error;

  // "byte offset 0x1c of kernel K" or "byte offset 0x40 of function F" for an instruction.
  std::string where(const amdgpu::Instruction& instruction) const;
};

// Resolves every instruction; on failure the diagnostics name each unimplemented instruction.
Result<std::shared_ptr<PreparedKernel>> prepare_kernel(const amdgpu::CodeObject& code_object, const amdgpu::Kernel& kernel,
                                                       const amdgpu::Disassembler& disassembler);

// Whether the emulator implements a mnemonic (for the status table and --coverage).
bool implements(std::string_view mnemonic);

// Kernels with global wave sync keep every workgroup resident: at most this many.
constexpr std::uint64_t kMaxResidentWorkgroups = 1u << 16;

struct Launch {
  std::array<std::uint32_t, 3> grid{1, 1, 1};   // workgroups
  std::array<std::uint32_t, 3> block{1, 1, 1};  // workitems per workgroup
  std::uint32_t dynamic_lds = 0;
  std::vector<std::uint8_t> kernarg;  // explicit arguments; hidden ones are filled in here
  unsigned jobs = 1;                   // host threads for workgroups
  std::uint64_t max_instructions = 0;  // per wave; 0: no limit
  double timeout_seconds = 0;          // 0: none
  // Services of the runtime: the hostcall buffer (hidden_hostcall_buffer), the device heap
  // (hidden_heap_v1) and the handler of MSG_INTERRUPT, by which device code asks the host to
  // serve a hostcall packet now. 0/null when absent.
  std::uint64_t hostcall_buffer = 0, heap = 0;
  // The JIT tier: never, once the kernel is hot, or always. --memcheck and --trace runs take the
  // interpreter, which is the reference.
  JitMode jit = JitMode::never;
  // JitMode::hot: the interpreted wave-instructions after which the kernel is compiled (0: the
  // default, max(kJitHotInstructions, 65536 per step, 32768 with the compile helper)); counted every 65536.
  std::uint64_t jit_hot = 0;
  // --memcheck: also report reads of LDS that the workgroup never wrote (RunStats::memcheck).
  bool memcheck = false;
  void (*interrupt)(void* user, std::uint32_t m0) = nullptr;
  void* interrupt_user = nullptr;
};

struct RunStats {
  std::uint64_t instructions = 0, lane_instructions = 0, workgroups = 0, waves = 0;
  std::uint64_t compiled_instructions = 0;  // of `instructions`, those the JIT tier's code ran
  double seconds = 0;
  // --memcheck findings, one per instruction: "kernel K: 12 reads of uninitialised LDS at byte
  // offset 0x58 (ds_load_b32 v1, v0); the first: 4 bytes at LDS offset 0x40, lane 3 of ..."
  std::vector<std::string> memcheck;
};

// Fills the hidden kernel arguments the metadata asks for (block counts, group sizes,
// remainders, global offsets, grid dims, dynamic LDS size) into `kernarg`, sized to the kernel's
// kernarg segment.
void fill_hidden_arguments(const amdgpu::Kernel& kernel, const Launch& launch, std::vector<std::uint8_t>& kernarg);

// Runs the grid. `image_base` is the host address of the code object's loaded image (for
// s_getpc_b64 and globals); the kernarg buffer and every device allocation must be registered
// in `memory`. A fault or an unimplemented instruction stops the kernel with a diagnostic
// naming the kernel, instruction offset, workgroup and lane.
Result<RunStats> run_kernel(const PreparedKernel& kernel, Launch launch, AddressSpace& memory, std::uint64_t image_base);

}  // namespace gpuport::emu
