// `gpuport asm`: NVIDIA machine code (a cubin, an executable or fatbinary, a .cu compiled with
// nvcc, or disassembler text) to AMD gfx1100 machine code through lifted LLVM IR. One output per
// NVIDIA architecture found in the input: the module of all its kernels as IR, assembly, a code
// object, and the offload bundle HIP host code embeds.
// Promise: all or nothing per output: when any kernel of it cannot be translated exactly, the
// findings say why and that output is not produced.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "common/diagnostic.h"
#include "lift/kernel_info.h"
#include "lift/sass_lift.h"

namespace gpuport::lift {

struct AsmOptions {
  std::vector<int> archs;                 // .cu inputs: compile for these (default sm_80); others: keep these only
  std::optional<std::string> kernel;      // translate only this kernel (mangled or demangled name)
  LiftTarget target = LiftTarget::gfx1100_wave32;
  int nvptx_sm = 0;                       // LiftTarget::nvptx: the cubin's sm_XX
  bool optimize = true;
  bool want_ir = true, want_assembly = false, want_code_object = true, want_bundle = true;
  TextLayoutHints text_hints;             // for listings without their cubin
};

struct KernelReport {
  std::string name;      // nvcc's mangled name
  std::string hip_name;  // the name the translation gives it: the one HIP host code registers
  bool ok = false;
  std::size_t sass_instructions = 0;
  std::vector<Diagnostic> findings;
};

struct AsmOutput {
  std::string name;  // the input and its arch, for messages: "vadd.cubin@sm_80"
  int arch = 0;
  bool ok = false;
  std::vector<KernelReport> kernels;
  std::string ir;           // LLVM assembly after optimisation
  std::string assembly;     // gfx1100 assembly text (PTX for the NVPTX round trip)
  std::string code_object;  // loadable ELF (a cubin for the NVPTX round trip)
  std::string bundle;       // clang offload bundle with the code object
  // Wall time of each phase: loading the semantics bitcode, lifting to IR, optimisation, code generation (assembly and object),
  // linking and bundling; for the translation speed benchmark.
  double setup_seconds = 0, lift_seconds = 0, optimize_seconds = 0, codegen_seconds = 0, link_seconds = 0;
};

struct AsmResult {
  std::vector<AsmOutput> outputs;
  std::vector<Diagnostic> diagnostics;  // input problems (unreadable, tool failures)
};

AsmResult translate_machine_code(const std::filesystem::path& input, std::string_view bytes, const AsmOptions& options);

}  // namespace gpuport::lift
