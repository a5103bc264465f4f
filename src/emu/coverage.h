// Per-instruction status of the emulator (exact, approximate with its bound, unsupported) and a
// program's coverage: which of its kernels' instructions the emulator runs exactly, which only
// approximately, and which not at all, known before anything runs.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "amdgpu/code_object.h"
#include "amdgpu/decode.h"
#include "common/diagnostic.h"

namespace gpuport::emu {

enum class Status { exact, approximate, unsupported };

struct InstructionStatus {
  Status status = Status::unsupported;
  std::string bound, note;  // approximate: the error bound and why
};

// The status of a mnemonic (v_add_f32, s_load_b32); approximate ones from data/emu/approximate.tsv.
InstructionStatus status_of(std::string_view mnemonic);

struct KernelCoverage {
  std::string kernel;
  std::size_t instructions = 0;
  std::vector<std::string> approximate;    // mnemonics, each once
  std::vector<std::string> unsupported;    // "offset: text (why)", each instruction
  // In device functions the kernel may call (it makes calls; callees are not traced statically):
  // each stops the kernel only if it is reached.
  std::vector<std::string> unsupported_in_callees;
};

// Decodes and prepares every kernel of the code object, recording what is not exact.
Result<std::vector<KernelCoverage>> coverage(const amdgpu::CodeObject& code_object);

std::string format_coverage(const amdgpu::CodeObject& code_object, const std::vector<KernelCoverage>& kernels);

}  // namespace gpuport::emu
