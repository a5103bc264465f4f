// gfx1100 machine code decoded once per kernel with LLVM 19's AMDGPU MC disassembler into a
// pre-decoded form (amdgpu::Instruction) that the emulator runs from and `gpuport run
// --coverage` reports on. No LLVM type leaks out of this header.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "amdgpu/code_object.h"
#include "common/diagnostic.h"

namespace gpuport::amdgpu {

// One MC operand. Registers carry the ISA's operand encoding of their first 32-bit register
// (SGPRn = n, VCC_LO = 106, NULL = 124, M0 = 125, EXEC_LO = 126, VGPRn = 256 + n) and their
// width in 32-bit registers (s[4:7] = 4, width 4).
struct Operand {
  enum class Kind : std::uint8_t { reg, imm, fp_imm, other };
  Kind kind = Kind::other;
  std::uint16_t reg = 0;    // encoding, for Kind::reg
  std::uint8_t width = 0;   // 32-bit registers, for Kind::reg
  std::int64_t imm = 0;     // value (Kind::imm), bit pattern of the double (Kind::fp_imm)
};

struct Instruction {
  std::uint64_t address = 0;  // virtual address in the code object
  std::uint32_t size = 0;     // bytes (4, 8 or 12)
  std::uint32_t opcode = 0;   // LLVM MC opcode
  std::string_view form;      // LLVM's name without the _gfx11 suffixes: V_ADD_F32_e32, GLOBAL_LOAD_DWORD
  std::string_view mnemonic;  // assembly mnemonic: v_add_f32, global_load_b32
  std::string text;           // the instruction as llvm-objdump prints it
  std::vector<Operand> operands;
  std::vector<std::uint16_t> implicit_uses, implicit_defs;  // encodings (VCC_LO, EXEC_LO, SCC...)
};

struct KernelCode {
  const Kernel* kernel = nullptr;
  std::vector<Instruction> instructions;
};

// Every gfx11 instruction form LLVM knows (for the opcode table in docs/): form, mnemonic,
// encoding family (the form's suffix: e32, e64, dpp, dpp8, or the base encoding).
struct OpcodeInfo {
  std::uint32_t opcode = 0;
  std::string_view form, mnemonic;
};

class Disassembler {
 public:
  // gfx1100, wave32 or wave64 (decoding of VCC/EXEC widths depends on it).
  static Result<std::unique_ptr<Disassembler>> create(bool wave64 = false);
  ~Disassembler();

  // Decodes [kernel.code_address, + code_size). Trailing s_code_end padding is dropped; a word
  // that is no gfx1100 instruction is an error naming the kernel and byte offset.
  Result<KernelCode> decode(const CodeObject& code_object, const Kernel& kernel) const;
  // Decodes [address, + size) of the image, the code of the function `name` (for messages).
  Result<std::vector<Instruction>> decode_range(const CodeObject& code_object, std::uint64_t address, std::uint64_t size,
                                                std::string_view name) const;

  std::vector<OpcodeInfo> gfx11_opcodes() const;
  std::string_view form_name(std::uint32_t opcode) const;
  std::string_view mnemonic(std::uint32_t opcode) const;

 private:
  Disassembler();
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace gpuport::amdgpu
