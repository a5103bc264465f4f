// Which registers each SASS instruction writes and reads: R, UR, P and UP, from the operand
// layout rules in data/sass/opcodes.tsv (leading destinations, carry-out predicates, register
// pairs for 64-bit data). Also the definitions reaching each use, as a value graph over a
// ControlFlowGraph.
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

// Which definitions can reach each use, as a graph instead of explicit sets (a forward
// may-analysis: a guarded, partial definition does not kill). Explicit sets are quadratic in
// size on long branchy code: a register updated under each of n branches has n reaching
// definitions at the end. Here a use reads one value, and a value is
//   - a definition (a partial one also holds the value before it, which may survive),
//   - the function's live-in value of the register (no definition on the way), or
//   - a merge at a join block of the values arriving from its predecessors (a phi).
// The definitions a use can see are the definition values reachable from the value it reads.
// Built on demand per (register, block) like Braun et al.'s SSA construction, without removing
// redundant merges: size O(instructions + the join blocks each register is live across).
struct ValueGraph {
  enum class Kind : std::uint8_t { definition, live_in, merge };
  static constexpr std::uint32_t none = UINT32_MAX;
  struct Value {
    Kind kind = Kind::live_in;
    RegisterRef reg;
    std::uint32_t definition = none;      // Kind::definition: index into `definitions`
    std::uint32_t block = none;           // Kind::merge: the join block
    std::vector<std::uint32_t> operands;  // merge: one per predecessor; partial definition: the value before it
  };
  std::vector<Definition> definitions;          // every definition site, in instruction order
  std::vector<std::uint32_t> definition_value;  // definition -> its value
  std::vector<Value> values;
  std::vector<std::vector<std::uint32_t>> use_values;  // instruction -> the value each of du[i].uses reads

  // The definitions reachable from `value`, sorted: what a use of it can see. A walk of the
  // graph, for tests and single queries; analyses propagate facts over the graph instead.
  std::vector<std::size_t> reaching(std::uint32_t value) const;
  // The same for the use of `reg` by instruction `index` (empty when the instruction reads no `reg`).
  std::vector<std::size_t> reaching(const std::vector<InstructionDefUse>& du, std::size_t index,
                                    RegisterRef reg) const;
};

ValueGraph build_value_graph(const ControlFlowGraph& cfg, const std::vector<InstructionDefUse>& def_use);

}  // namespace gpuport::sass
