// Divergence analysis over one SASS function: which conditional branches may split a warp
// (a uniformity analysis over def-use), how the code reconverges (Pascal SSY/SYNC, Volta+
// BSSY/BSYNC, WARPSYNC, BREAK/PBK loop exits, predication), and where: the reconvergence point
// set by the matching marker, compared with the branch block's immediate post-dominator.
// Promise: every conditional control transfer gets one entry with a mechanism; what the
// analysis cannot pair (no marker) is reported as such, never guessed.
#pragma once
#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "sass/cfg.h"
#include "sass/program.h"

namespace gpuport::sass {

enum class DivergenceMechanism : std::uint8_t {
  ssy_sync,        // Pascal SSY ... SYNC
  bssy_bsync,      // Volta+ BSSY Bx ... BSYNC Bx
  warpsync,        // WARPSYNC.COLLECTIVE / __syncwarp
  predication,     // guarded instructions without a branch (counted per function)
  uniform_branch,  // the condition is warp-uniform: no divergence
  break_exit,      // BREAK/BRK (PBK) loop exits
  call,            // CAL/CALL
  exit,            // guarded EXIT/RET/BPT.TRAP: the threads leave, nothing reconverges
  unmarked,        // a divergent branch no barrier, SSY or WARPSYNC reconverges (ipdom only)
  other,           // convergence tests (BRA.DIV/.CONV)
};
std::string_view mechanism_name(DivergenceMechanism mechanism);  // "ssy_sync", ..., "break", ...

// Where the reconvergence point lies relative to the branch block's immediate post-dominator.
enum class ReconvergencePlacement : std::uint8_t {
  none,        // no marker pairs with the branch (or uniform)
  at_ipdom,    // the marker's target is the ipdom (or the ipdom is the BSYNC/SYNC block falling into it)
  deferred,    // the marker's target strictly post-dominates the ipdom
  other,       // the marker's target does not post-dominate the ipdom (exits in between)
};
std::string_view placement_name(ReconvergencePlacement placement);

struct BranchDivergence {
  std::size_t instruction = 0;
  std::size_t block = 0;
  std::uint64_t address = 0;
  std::string text;            // "@!P0 BRA" (guard and opcode with modifiers)
  bool divergent = false;      // potentially divergent
  std::string reason;          // why divergent / uniform
  DivergenceMechanism mechanism = DivergenceMechanism::other;
  bool has_marker = false;     // paired with an SSY/PBK/BSSY
  std::size_t marker_instruction = 0;
  int barrier = -1;
  bool has_reconvergence = false;
  std::size_t reconvergence_block = 0;
  std::uint64_t reconvergence_address = 0;
  bool has_ipdom = false;
  std::size_t ipdom_block = 0;  // may be the virtual exit
  ReconvergencePlacement placement = ReconvergencePlacement::none;
};

struct LoopDivergence {
  std::size_t header = 0;
  std::uint64_t address = 0;
  std::size_t blocks = 0;       // natural-loop body size (all back edges to the header)
  std::size_t exits = 0;        // edges leaving the body
  std::size_t breaks = 0;       // BREAK/BRK instructions in the body
  bool divergent_exit = false;  // some exit is taken by a potentially divergent transfer
};

struct DivergenceReport {
  std::string function;
  int arch = 0;
  std::vector<BranchDivergence> branches;  // conditional transfers, in address order
  std::vector<LoopDivergence> loops;
  std::size_t predicated_divergent = 0;    // guarded non-branch instructions with a divergent guard
  std::size_t predicated_uniform = 0;      // ... with a uniform guard
  std::map<std::string, std::size_t> divergent_by_mechanism;  // divergent branches per mechanism
  std::size_t divergent_branches = 0;
  std::size_t uniform_branches = 0;
  std::size_t deferred = 0;
  // Blackwell (and other) extras, counted on every arch.
  std::size_t uniform_branch_instructions = 0;  // BRA.U / UP-guarded branches
  std::map<std::string, std::size_t> barrier_modifiers;  // "BSSY.RECONVERGENT" -> count
  std::size_t partial_warpsyncs = 0;             // WARPSYNC whose mask is not the full 0xffffffff
  std::vector<std::string> problems;             // from the CFG, plus unmatched markers
};

DivergenceReport analyze_divergence(const SassFunction& function, int arch);

std::string divergence_text(const DivergenceReport& report);
std::string divergence_json(const std::vector<DivergenceReport>& reports, int indent = 2);
// The same as a value: one object per function.
nlohmann::ordered_json divergence_json_value(const std::vector<DivergenceReport>& reports);
// The function's CFG with divergent branches (red), uniform branches (green) and reconvergence
// points (double octagon) marked.
std::string divergence_dot(const DivergenceReport& report, const SassFunction& function);

}  // namespace gpuport::sass
