// Lifts NVIDIA SASS kernels (sass::SassFunction, with the subroutines and device functions they
// call) to LLVM IR for one thread: registers and predicates become SSA values once mem2reg has
// run, every instruction is a call of its semantic function (semantics/*.h, linked in as bitcode
// by lower.h) or plain IR for memory and control flow, and what only the target can do (thread
// ids, warp votes and shuffles, barriers) goes through the target hooks of semantics/sass.h.
// Promise: an instruction or operand the lifter cannot express exactly is a finding naming the
// kernel, the byte offset and the instruction text, and the kernel is not emitted; never a guess.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/diagnostic.h"
#include "sass/program.h"

namespace llvm {
class Module;
class Function;
}  // namespace llvm

namespace gpuport::lift {

// One kernel parameter as the CUDA ABI lays it out in constant bank 0 (and as HIP lays out the
// kernel's arguments: the same natural C layout).
struct ParameterLayout {
  std::uint32_t offset = 0;     // within the parameter block
  std::uint32_t size = 0;       // bytes
  std::uint32_t alignment = 1;  // bytes
  bool pointer = false;         // a global pointer (HIP metadata: global_buffer), when known
};

// A __constant__ or __device__ variable of the module the kernel reads through a constant bank
// or an address relocation.
struct ModuleVariable {
  std::string name;
  std::uint32_t bank = 0;        // constant bank (3 on sm_70+ for __constant__ data); 0: not in a bank
  std::uint64_t offset = 0;      // within the bank
  std::uint64_t size = 0;
  std::vector<std::uint8_t> initial;  // initial bytes (zero-filled when shorter than size)
  bool host_name = false;        // `name` is already the one HIP's host code registers (--source)
};

// What the SASS text does not say about a kernel: from the cubin's .nv.info and sections, or,
// for text alone, from the demangled signature (see kernel_info.h).
struct KernelInfo {
  std::string name;                          // the mangled name, as the host registers it
  std::vector<ParameterLayout> parameters;
  std::uint64_t static_shared_bytes = 0;     // .nv.shared.<name>
  std::uint32_t local_bytes = 0;             // per-thread local memory (stack frame and callees)
  std::vector<ModuleVariable> variables;     // constant-bank data the kernel may read
  // Read-only constant banks by number, as the cubin holds them (2: the compiler's constants
  // and jump tables, .nv.constant2.<name>; 4: CUDA 13's table of global addresses, .nv.constant4).
  std::map<std::uint32_t, std::vector<std::uint8_t>> constant_banks;
  // Addresses the CUDA loader writes into a read-only bank (.rela.nv.constant4: R_CUDA_64, type 2,
  // a symbol's 64-bit address plus an addend), by bank.
  struct BankRelocation {
    std::uint64_t offset = 0;  // in the bank
    std::uint32_t type = 0;    // ELF relocation type; only 2 (64-bit absolute) is lifted
    std::string symbol;
    std::int64_t addend = 0;
  };
  std::map<std::uint32_t, std::vector<BankRelocation>> bank_relocations;
};

// gfx1100 in wave32 (one NVIDIA warp per wave) or wave64 (one NVIDIA warp per 32-lane half); or
// back to NVIDIA through LLVM's NVPTX back end and ptxas (the round trip that checks the lifter on
// the machine the SASS came from; the sm_XX is LiftModule::nvptx_sm).
enum class LiftTarget { gfx1100_wave32, gfx1100_wave64, nvptx };
inline bool is_amdgpu(LiftTarget t) { return t != LiftTarget::nvptx; }

struct LiftRequest {
  const sass::SassProgram* program = nullptr;  // the kernel's listing: callees are found here
  const sass::SassFunction* kernel = nullptr;
  KernelInfo info;
  int arch = 0;  // sm_XX the SASS is for
  LiftTarget target = LiftTarget::gfx1100_wave32;
  std::string source_name;  // the input, for findings
};

struct LiftResult {
  llvm::Function* function = nullptr;  // in the module; nullptr when the kernel could not be lifted
  std::vector<Diagnostic> findings;     // unsupported instructions and operands, with positions
  std::size_t instructions = 0;         // SASS instructions lifted (the kernel and its callees)
};

// Adds the lifted kernel to `module`, whose target triple and data layout are the target's and
// into which the semantics bitcode has been loaded (lower.h: make_lift_module).
LiftResult lift_kernel(llvm::Module& module, const LiftRequest& request);

// Every SASS mnemonic the lifter has a handler for (sorted); a handler may still refuse a form.
std::vector<std::string> lifted_opcodes();

}  // namespace gpuport::lift
