// Which orders of a SASS kernel's instructions are the same program: the dependences inside each
// basic block (registers and predicates, scoreboards, memory that may alias, fences) and the
// issue distances a move must keep, with a checker for a whole candidate order.
// Promise: block boundaries never move (branch targets, labels and jump tables stay valid), and
// an order `check_order` accepts keeps every dependence and distance below; anything the
// analysis does not understand (unknown opcodes, undecoded words, clocks) is a fence.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sass/cfg.h"
#include "sass/defuse.h"
#include "sass/program.h"
#include "tune/tables.h"

namespace gpuport::tune {

// A memory access as far as aliasing goes: the base register and the version of its value
// (definitions of it earlier in the block), the constant offset and the bytes touched.
struct MemoryAccess {
  MemorySpace space = MemorySpace::none;
  bool reads = false, writes = false;
  bool known_address = false;  // a plain [Rn(.64) + offset] or [URn + offset] address
  sass::RegisterRef base;
  std::uint32_t base_version = 0;
  std::string descriptor;      // desc[URx] prefix; accesses with different ones are not compared
  std::int64_t offset = 0;
  int bytes = 4;
};

struct InstructionFacts {
  TuneOpcodeInfo info;
  sass::InstructionDefUse def_use;
  sass::ControlCode control;      // all-zero (stall 1) when the listing had no encodings
  bool variable_latency = false;  // sets a write scoreboard
  bool fence = false;             // nothing moves across it (includes every control transfer)
  MemoryAccess memory;
  int stall() const { return control.stall == 0 ? 1 : control.stall; }
};

// `before` must stay before `after` (block-local indices, before < after in the original).
struct Dependence {
  std::uint32_t before = 0, after = 0;
  enum class Kind : std::uint8_t { register_flow, register_anti, register_output, scoreboard, wait_guard, memory, fence };
  Kind kind = Kind::register_flow;
};
std::string_view dependence_kind_name(Dependence::Kind kind);

// The issue cycles from `producer` to `consumer` (the sum of the stalls of the instructions
// from the producer up to the consumer, producer included) must stay at least `cycles`.
// kBlockStart / kBlockEnd stand for the block's edges: a value from an earlier block, or one
// read in a later block.
struct DistanceConstraint {
  static constexpr std::uint32_t kBlockStart = UINT32_MAX - 1, kBlockEnd = UINT32_MAX;
  std::uint32_t producer = 0, consumer = 0;
  int cycles = 0;
};

struct BlockSchedule {
  std::size_t block = 0;              // CFG block id
  std::size_t first = 0, count = 0;   // instruction indices [first, first + count)
  std::vector<Dependence> dependences;
  std::vector<DistanceConstraint> distances;
  std::vector<std::vector<std::uint32_t>> predecessors;  // local index -> local indices that must precede it
  bool movable() const { return count > 2; }
};

struct KernelSchedule {
  const sass::SassFunction* function = nullptr;
  sass::ControlFlowGraph cfg;
  std::vector<InstructionFacts> facts;   // per instruction
  std::vector<BlockSchedule> blocks;     // per CFG block with instructions, in address order
  std::vector<std::size_t> block_index;  // instruction -> index into `blocks`
  bool has_control_codes = false;        // Volta+ listing with encodings
  std::vector<std::string> problems;     // why the kernel cannot be rescheduled, if it cannot
};

// `function` must outlive the result.
KernelSchedule analyse_schedule(const sass::SassFunction& function, int arch,
                                const TuneOpcodeTable& table = builtin_tune_opcode_table());

// A candidate order of the whole function: order[slot] = the original index of the instruction
// placed there. Slots of a block stay within the block.
using Order = std::vector<std::uint32_t>;
Order identity_order(const KernelSchedule& schedule);

// New stall counts, by original instruction index (empty: every instruction keeps its own).
// Stalls are only ever raised above the compiled ones: a longer wait never breaks a hazard, and
// it lets a move that would shorten a producer -> consumer distance pay for it with a stall.
using StallPlan = std::vector<std::uint8_t>;
StallPlan original_stalls(const KernelSchedule& schedule);
// The largest stall the encoding allows: with the raw yield bit set, stall fields 0 and 12..15
// are not valid instructions (nvdisasm rejects them on sm_90: checked on LDS and FFMA words).
int max_stall(const sass::ControlCode& control);
// The stall `instruction` issues with under `stalls` (at least 1, as the hardware counts).
int stall_of(const KernelSchedule& schedule, const StallPlan& stalls, std::uint32_t instruction);

// Why `order` is not the same program (empty when it is): a block boundary crossed, a
// dependence reversed, a distance shortened or a stall lowered below the compiled one, each
// named with the instructions.
std::vector<std::string> check_order(const KernelSchedule& schedule, const Order& order, const StallPlan& stalls = {});

// Moves the instruction at `from_slot` to `to_slot` (same block), shifting those between.
// Returns false and leaves `order` as it was when the move is not legal. With `stalls` (sized by
// original_stalls), distances the move would shorten are restored by raising the stall of the
// instructions just before each consumer (up to max_stall each), instead of refusing the move.
bool try_move(const KernelSchedule& schedule, Order& order, std::size_t from_slot, std::size_t to_slot,
              StallPlan* stalls = nullptr);

// Lowers raised stalls back towards the compiled ones wherever every distance still holds.
void relax_stalls(const KernelSchedule& schedule, const Order& order, StallPlan& stalls);

// The sum of stalls between two slots of one order: cycles from issuing `from` to issuing `to`.
int issue_distance(const KernelSchedule& schedule, const Order& order, std::size_t from_slot, std::size_t to_slot,
                   const StallPlan& stalls = {});

}  // namespace gpuport::tune
