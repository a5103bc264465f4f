// Per-opcode facts the CFG and def-use read: how many leading operands an instruction writes,
// how wide its register operands are, and how it transfers control. The facts live in
// data/sass/opcodes.tsv (compiled in); this module only parses and looks them up.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gpuport::sass {

enum class DefRule : std::uint8_t { count, carry };
enum class WidthRule : std::uint8_t { scalar, memory, wide, f64, convert };

// How an instruction moves control. Pascal's stack ops (push_*, pop_*) and Volta's convergence
// barriers (barrier_*) are told apart because the divergence analysis reports them apart.
enum class ControlKind : std::uint8_t {
  none,
  branch,          // BRA, JMP: to a label operand
  indirect,        // BRX, JMX: to a register; targets from BRANCH_TARGETS when printed
  call,            // CAL, CALL, JCAL: returns to the next instruction
  ret,             // RET
  exit,            // EXIT, KILL
  trap,            // BPT
  push_sync,       // SSY target: pushes the reconvergence point SYNC returns to
  push_break,      // PBK target
  push_continue,   // PCNT target
  push_exit,       // PEXIT
  pop_sync,        // SYNC: to the target of the matching SSY
  pop_break,       // BRK: to the target of the matching PBK
  pop_continue,    // CONT: to the target of the matching PCNT
  barrier_set,     // BSSY Bx, target
  barrier_sync,    // BSYNC Bx
  barrier_break,   // BREAK Bx
  warpsync,        // WARPSYNC mask; WARPSYNC.COLLECTIVE mask, label branches when not converged
};

std::string_view control_kind_name(ControlKind kind);

struct OpcodeInfo {
  std::string opcode;
  DefRule def_rule = DefRule::count;
  std::uint8_t defs = 1;  // DefRule::count
  WidthRule width = WidthRule::scalar;
  ControlKind control = ControlKind::none;
};

struct OpcodeTable {
  std::vector<OpcodeInfo> rows;  // sorted by opcode
  std::vector<std::string> errors;  // "line N: ..." for rows that could not be read

  // nullptr when the opcode has no row.
  const OpcodeInfo* find(std::string_view opcode) const;
};

// Parses the .tsv text (comments start with '#').
OpcodeTable parse_opcode_table(std::string_view text);

// The table compiled in from data/sass/opcodes.tsv.
const OpcodeTable& builtin_opcode_table();
std::string_view builtin_opcode_table_text();

}  // namespace gpuport::sass
