#include "tune/cost_model.h"

#include <algorithm>
#include <cmath>

#include "sass/dominators.h"

namespace gpuport::tune {

std::string_view latency_class_name(LatencyClass c) {
  switch (c) {
    case LatencyClass::global_memory: return "global";
    case LatencyClass::shared_memory: return "shared";
    case LatencyClass::local_memory: return "local";
    case LatencyClass::constant_memory: return "constant";
    case LatencyClass::texture: return "texture";
    case LatencyClass::other: return "other";
  }
  return "?";
}

LatencyClass latency_class(const InstructionFacts& facts) {
  switch (facts.info.space) {
    case MemorySpace::global:
    case MemorySpace::generic: return LatencyClass::global_memory;
    case MemorySpace::shared: return LatencyClass::shared_memory;
    case MemorySpace::local: return LatencyClass::local_memory;
    case MemorySpace::constant: return LatencyClass::constant_memory;
    case MemorySpace::texture: return LatencyClass::texture;
    case MemorySpace::none: break;
  }
  return LatencyClass::other;
}

int CostModel::latency(const InstructionFacts& facts) const {
  double l = facts.info.latency * scale[static_cast<int>(latency_class(facts))];
  return std::max(1, static_cast<int>(std::lround(l)));
}

std::vector<double> block_weights(const KernelSchedule& schedule, const CostModel& model) {
  const sass::ControlFlowGraph& cfg = schedule.cfg;
  std::vector<int> depth(cfg.block_count(), 0);
  sass::DominatorTree dom = sass::compute_dominators(cfg);
  for (std::size_t e : sass::back_edges(cfg, dom)) {
    // The natural loop of the back edge tail -> header: blocks reaching the tail without the header.
    std::size_t header = cfg.edges[e].to, tail = cfg.edges[e].from;
    std::vector<bool> in_loop(cfg.block_count(), false);
    in_loop[header] = true;
    std::vector<std::size_t> work{tail};
    while (!work.empty()) {
      std::size_t b = work.back();
      work.pop_back();
      if (in_loop[b]) continue;
      in_loop[b] = true;
      for (std::size_t p : cfg.predecessor_blocks(b)) work.push_back(p);
    }
    for (std::size_t b = 0; b < in_loop.size(); ++b) depth[b] += in_loop[b] ? 1 : 0;
  }
  std::vector<double> weights;
  for (const BlockSchedule& b : schedule.blocks) weights.push_back(std::pow(model.loop_weight, std::min(depth[b.block], 4)));
  return weights;
}

double block_cycles(const KernelSchedule& schedule, const CostModel& model, const Order& order, std::size_t block,
                    const StallPlan& stalls) {
  const BlockSchedule& b = schedule.blocks[block];
  std::array<double, 8> ready{};
  double next_issue = 0, finish = 0;
  for (std::size_t slot = b.first; slot < b.first + b.count; ++slot) {
    const InstructionFacts& f = schedule.facts[order[slot]];
    double issue = next_issue;
    for (int k = 0; k < 6; ++k)
      if (f.control.wait_mask >> k & 1) issue = std::max(issue, ready[k]);
    if (f.control.write_barrier < 6)
      ready[f.control.write_barrier] = std::max(ready[f.control.write_barrier], issue + model.latency(f));
    // Sources of a variable-latency op are read a few cycles after issue.
    if (f.control.read_barrier < 6) ready[f.control.read_barrier] = std::max(ready[f.control.read_barrier], issue + 4);
    next_issue = issue + stall_of(schedule, stalls, order[slot]);
    finish = std::max(finish, next_issue);
  }
  return finish;
}

CostEstimate estimate_cost(const KernelSchedule& schedule, const CostModel& model, const Order& order,
                           const StallPlan& stalls) {
  CostEstimate e;
  std::vector<double> weights = block_weights(schedule, model);
  for (std::size_t b = 0; b < schedule.blocks.size(); ++b) {
    double c = block_cycles(schedule, model, order, b, stalls);
    e.block_cycles.push_back(c);
    e.cycles += c * weights[b];
  }
  return e;
}

CostModel calibrate(const KernelSchedule& schedule, const CostModel& start, const std::vector<CalibrationSample>& samples,
                    double* error_before, double* error_after) {
  Order original = identity_order(schedule);
  auto error = [&](const CostModel& m) {
    double base = estimate_cost(schedule, m, original).cycles;
    double sum = 0;
    for (const CalibrationSample& s : samples) {
      double predicted = base > 0 ? estimate_cost(schedule, m, s.order, s.stalls).cycles / base : 1;
      sum += (predicted - s.measured_ratio) * (predicted - s.measured_ratio);
    }
    return sum;
  };
  CostModel best = start;
  double best_error = error(best);
  if (error_before) *error_before = best_error;
  static constexpr double kFactors[] = {0.25, 0.5, 0.75, 1.5, 2, 4};
  for (int round = 0; round < 3 && !samples.empty(); ++round) {
    bool improved = false;
    for (int c = 0; c < kLatencyClasses; ++c)
      for (double factor : kFactors) {
        CostModel trial = best;
        trial.scale[c] = std::clamp(trial.scale[c] * factor, 1.0 / 16, 16.0);
        double e = error(trial);
        if (e + 1e-12 < best_error) {
          best = trial;
          best_error = e;
          improved = true;
        }
      }
    if (!improved) break;
  }
  if (error_after) *error_after = best_error;
  return best;
}

}  // namespace gpuport::tune
