// The search for faster instruction orders, on the cost model alone: a latency-first list
// schedule of every block, a first-improvement descent over legal single-instruction moves (any
// instruction, not only memory ones), every long-latency load raised as far as it may go (which
// the single-warp model cannot credit: it is offered when the model calls it no worse than 1%),
// then simulated annealing from the descent and from the list schedule, keeping the best
// distinct orders. The candidates it returns are what the GPU measures; to tell
// which block a gain comes from, the best order is also offered one hot block at a time.
// Promise: every candidate passes check_order; the same inputs and seed give the same candidates.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tune/cost_model.h"
#include "tune/schedule.h"

namespace gpuport::tune {

struct SearchOptions {
  int candidates = 8;          // at most this many orders returned
  int steps = 20000;           // annealing steps per start
  double start_temperature = 0.001;  // relative to the original cost
  std::uint64_t seed = 1;
  bool raise_stalls = true;    // also search with stalls raised to pay for shortened distances
  double time_limit_s = 120;   // the whole search stops here (a long kernel); what it found is kept
};

struct Candidate {
  std::string id;         // "c01", ...
  std::string strategy;   // "list", "anneal", "anneal+list", "block <address>"
  Order order;
  StallPlan stalls;       // empty: every instruction keeps its compiled stall
  std::size_t stalls_raised = 0;
  double model_cycles = 0;
  double model_gain = 0;  // original / candidate - 1
  std::size_t moved = 0;  // instructions not in their original slot
};

struct SearchResult {
  double original_cycles = 0;
  std::vector<Candidate> candidates;  // best model gain first
  std::size_t legal_moves_tried = 0, legal_moves_accepted = 0;
  bool stopped_by_time = false;
};

SearchResult search_schedules(const KernelSchedule& schedule, const CostModel& model, const SearchOptions& options = {});

// The list schedule alone (latency-weighted critical path first); blocks where it cannot keep
// every distance stay as they were.
Order list_schedule(const KernelSchedule& schedule, const CostModel& model);

// One instruction that changed its slot, for reports: original index, old and new slot.
struct MovedInstruction {
  std::uint32_t instruction = 0;
  std::size_t from_slot = 0, to_slot = 0;
};
std::vector<MovedInstruction> moved_instructions(const Order& order);

}  // namespace gpuport::tune
