// From lifted IR to what a HIP runtime loads: the module the lifter writes into (the semantics
// bitcode for the target, already loaded), LLVM's optimisation pipeline, the AMDGPU back end
// (object file or assembly text), ld.lld into a code object, and clang-offload-bundler into the
// offload bundle that HIP host code embeds (`-Xclang -fcuda-include-gpubinary`). For the NVIDIA
// round trip: the NVPTX back end (PTX) and ptxas 11.8 (a cubin).
// Promise: tools run through common/process.h with their command in every error; nothing is
// written to the file system except in a private temporary folder that is removed.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/diagnostic.h"
#include "lift/sass_lift.h"

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace gpuport::lift {

// An LLVM context and a module that starts as the target's semantics bitcode.
struct LiftModule {
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> module;
  LiftTarget target = LiftTarget::gfx1100_wave32;
  int nvptx_sm = 0;  // LiftTarget::nvptx: the sm_XX the PTX and the cubin are for
  LiftModule();
  LiftModule(LiftModule&&) noexcept;
  LiftModule& operator=(LiftModule&&) noexcept;
  ~LiftModule();
};

// std::nullopt-free: an error diagnostic when the semantics bitcode is not built in.
Result<LiftModule> make_lift_module(const std::string& name, LiftTarget target, int nvptx_sm = 0);

// Makes every function but the kernels internal and always-inline, runs the O3 pipeline (or
// only the clean-up needed for readable IR when `optimize` is false), and verifies the module.
std::vector<Diagnostic> finalize_module(LiftModule& module, bool optimize = true);

// The module as LLVM assembly text.
std::string module_text(const LiftModule& module);

enum class EmitKind { object, assembly };
// Runs the target's code generator. The object is a relocatable ELF for amdgcn; for NVPTX the
// assembly is PTX and there is no object (assemble_ptx makes the cubin).
Result<std::string> emit_machine_code(LiftModule& module, EmitKind kind);

// CUDA 11.8's ptxas -arch=sm_XX: PTX text to a cubin. A finding when ptxas 11.8 is not installed.
Result<std::string> assemble_ptx(const std::string& ptx, int sm);

// ld.lld-19 -shared: a relocatable AMDGPU object to a loadable code object.
Result<std::string> link_code_object(const std::string& object);

// clang-offload-bundler-19: the code object as the hipv4-amdgcn-amd-amdhsa--gfx1100 entry of an
// offload bundle (with an empty host entry), as clang embeds device code in HIP executables.
Result<std::string> make_offload_bundle(const std::string& code_object, LiftTarget target);

// "gfx1100"; the offload-arch name of a target ("sm_80" for NVPTX).
std::string target_processor(LiftTarget target, int nvptx_sm = 0);

}  // namespace gpuport::lift
