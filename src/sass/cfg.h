// The control-flow graph of one SASS function: basic blocks split at labels, branch targets and
// after control transfers, typed edges, and a virtual exit that EXIT/RET/KILL blocks reach.
// It records, next to the edges, what the divergence analysis needs: call targets, and the
// reconvergence points set by SSY/PBK/PCNT (Pascal) and BSSY (Volta+).
// Promise: every instruction lies in exactly one block; targets that cannot be resolved are
// reported in `problems`, never guessed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sass/opcode_table.h"
#include "sass/program.h"

namespace gpuport::sass {

enum class EdgeKind : std::uint8_t {
  fallthrough,       // the next block, no transfer (block split at a label)
  branch_taken,      // BRA/JMP/WARPSYNC.COLLECTIVE/BREAK-less transfers to their label
  branch_not_taken,  // a conditional transfer's next block (guarded, .DIV/.CONV, BRA.U UPx)
  indirect,          // BRX/JMX to one of its BRANCH_TARGETS
  call_return,       // CAL/CALL to the instruction after it
  reconvergence,     // Pascal SYNC/BRK/CONT to the target of the matching SSY/PBK/PCNT
  exit,              // EXIT/RET/KILL/BPT.TRAP to the virtual exit
};

std::string_view edge_kind_name(EdgeKind kind);

struct CfgEdge {
  std::size_t from = 0;
  std::size_t to = 0;
  EdgeKind kind = EdgeKind::fallthrough;
  std::size_t instruction = 0;  // index of the instruction that makes the edge (the last of `from`)

  friend bool operator==(const CfgEdge&, const CfgEdge&) = default;
};

struct BasicBlock {
  std::size_t id = 0;
  std::size_t first = 0;  // instruction indices, inclusive; empty for the virtual exit
  std::size_t last = 0;
  bool is_virtual_exit = false;
  std::vector<std::string> labels;      // labels naming `first`
  std::vector<std::size_t> successors;  // edge indices into ControlFlowGraph::edges
  std::vector<std::size_t> predecessors;

  std::size_t size() const { return is_virtual_exit ? 0 : last - first + 1; }
};

// A CAL/CALL: the callee stays a name (it is another function of the program, or a label here).
struct CallSite {
  std::size_t instruction = 0;
  std::string callee;
};

// SSY/PBK/PCNT (Pascal) or BSSY (Volta+): the point threads reconverge at.
struct ReconvergenceMarker {
  std::size_t instruction = 0;  // the SSY/PBK/PCNT/BSSY
  ControlKind kind = ControlKind::none;
  int barrier = -1;               // Bx of BSSY; -1 on Pascal
  std::size_t target_block = 0;   // block starting at the target label
  bool resolved = false;
};

struct ControlFlowGraph {
  std::string function;                 // SassFunction::name
  int arch = 0;
  std::vector<BasicBlock> blocks;       // blocks[exit] is the virtual exit
  std::vector<CfgEdge> edges;
  std::vector<std::size_t> block_of;    // instruction index -> block id
  std::vector<ControlKind> control_of;  // instruction index -> how it moves control
  std::vector<CallSite> calls;
  std::vector<ReconvergenceMarker> reconvergence;
  std::vector<std::string> problems;    // unresolved targets, unmatched SYNC/BRK/CONT
  std::size_t entry = 0;
  std::size_t exit = 0;

  std::size_t block_count() const { return blocks.size(); }  // including the virtual exit
  const CfgEdge& edge(std::size_t index) const { return edges[index]; }
  // Blocks reached from `block` (successor block ids, in edge order; duplicates kept).
  std::vector<std::size_t> successor_blocks(std::size_t block) const;
  std::vector<std::size_t> predecessor_blocks(std::size_t block) const;
  // The block that starts at `label`, if any.
  std::optional<std::size_t> block_of_label(std::string_view label) const;
  // Whether the edge goes to a block at or before its source in address order (a loop back edge
  // in the usual structured layout; see dominators.h for the dominance-based definition).
  bool is_backward(const CfgEdge& edge) const;
};

// How the instruction at `index` transfers control (table lookup plus the modifiers/operands
// that make BRA conditional or WARPSYNC a branch).
ControlKind control_kind(const SassInstruction& instruction);
// A transfer is conditional when it is guarded by something other than PT, has a predicate
// operand (BRA P1 / BRA.U !UP0), or asks the hardware about convergence (BRA.DIV, BRA.CONV,
// WARPSYNC.COLLECTIVE).
bool is_conditional(const SassInstruction& instruction);

// The label names in nvdisasm's (*"BRANCH_TARGETS .L_x_1,.L_x_2"*) annotation of a BRX/JMX.
std::vector<std::string> branch_targets(std::string_view annotation);

// `arch` only annotates the result (SassProgram::arch).
ControlFlowGraph build_cfg(const SassFunction& function, int arch = 0);

// Graphviz text: one node per block labelled with its address range and first/last instruction,
// edges styled by kind. Deterministic.
std::string to_dot(const ControlFlowGraph& cfg, const SassFunction& function);
// Without the function: nodes show only instruction index ranges.
std::string to_dot(const ControlFlowGraph& cfg);

// Extra marks for to_dot (the divergence analysis uses them): per block id, attributes added to
// the node (", color=red") and lines appended to its label; whole lines added before the '}'.
struct DotDecorations {
  std::vector<std::string> block_attributes;
  std::vector<std::string> block_notes;
  std::vector<std::string> extra_lines;
};
std::string to_dot(const ControlFlowGraph& cfg, const SassFunction& function, const DotDecorations& decorations);

}  // namespace gpuport::sass
