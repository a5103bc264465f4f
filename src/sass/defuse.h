// Which registers each SASS instruction writes and reads: R, UR, P and UP, from the operand
// layout rules in data/sass/opcodes.tsv (leading destinations, carry-out predicates, register
// pairs for 64-bit data). Also reaching definitions per block over a ControlFlowGraph.
// Promise: RZ, URZ, PT and UPT never appear; a guarded instruction's definitions are marked
// partial (the old value survives where the guard is false); opcodes without a table row are
// flagged, not guessed silently (they default to one destination).
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sass/cfg.h"
#include "sass/opcode_table.h"
#include "sass/program.h"

namespace gpuport::sass {

enum class RegisterFile : std::uint8_t { r, ur, p, up };

struct RegisterRef {
  RegisterFile file = RegisterFile::r;
  std::uint16_t index = 0;

  friend auto operator<=>(const RegisterRef&, const RegisterRef&) = default;
};

std::string register_name(RegisterRef reg);  // "R4", "UR5", "P0", "UP1"

struct InstructionDefUse {
  std::vector<RegisterRef> defs;  // sorted, unique
  std::vector<RegisterRef> uses;  // sorted, unique; includes the guard predicate
  bool partial = false;           // guarded: the defs may leave the old values in place
  bool known_opcode = true;       // the opcode has a row in the table
};

InstructionDefUse def_use(const SassInstruction& instruction,
                          const OpcodeTable& table = builtin_opcode_table());
std::vector<InstructionDefUse> def_use(const SassFunction& function,
                                       const OpcodeTable& table = builtin_opcode_table());

// A definition site: the instruction index and the register it writes.
struct Definition {
  std::size_t instruction = 0;
  RegisterRef reg;

  friend auto operator<=>(const Definition&, const Definition&) = default;
};

// Reaching definitions per block (forward may-analysis; a partial definition does not kill).
struct ReachingDefinitions {
  std::vector<Definition> definitions;                   // every definition site, in order
  std::vector<std::vector<std::size_t>> in, out;         // block -> indices into `definitions`, sorted

  // Definitions of `reg` that reach the start of instruction `index` (indices into definitions).
  std::vector<std::size_t> reaching(const ControlFlowGraph& cfg, const std::vector<InstructionDefUse>& du,
                                    std::size_t index, RegisterRef reg) const;
};

ReachingDefinitions reaching_definitions(const ControlFlowGraph& cfg,
                                         const std::vector<InstructionDefUse>& def_use);

}  // namespace gpuport::sass
