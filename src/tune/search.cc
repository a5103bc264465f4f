#include "tune/search.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <chrono>
#include <set>

#include "tune/measure_stats.h"

namespace gpuport::tune {

namespace {

// splitmix64 (measure_stats.h): small, fast, and the same on every platform (std::
// distributions are not).
class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() { return splitmix64(state_); }
  std::size_t below(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(next() % n); }
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  std::uint64_t state_;
};

std::uint64_t order_hash(const Order& order, const StallPlan& stalls = {}) {
  std::uint64_t h = 1469598103934665603ULL;
  for (std::uint32_t v : order) h = (h ^ v) * 1099511628211ULL;
  for (std::uint8_t v : stalls) h = (h ^ (v + 0x100u)) * 1099511628211ULL;
  return h;
}

std::size_t count_moved(const Order& order) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < order.size(); ++i) n += order[i] != i;
  return n;
}

// Critical path to the block end: a register or scoreboard successor adds the producer's latency
// (the modelled one for variable-latency producers, its stall otherwise).
std::vector<double> block_priorities(const KernelSchedule& s, const CostModel& model, const BlockSchedule& b) {
  std::vector<std::vector<std::pair<std::uint32_t, double>>> successors(b.count);
  for (const Dependence& d : b.dependences) {
    const InstructionFacts& f = s.facts[b.first + d.before];
    double w = d.kind == Dependence::Kind::register_flow && f.variable_latency ? model.latency(f) : f.stall();
    successors[d.before].push_back({d.after, w});
  }
  std::vector<double> priority(b.count, 0);
  for (std::size_t i = b.count; i-- > 0;) {
    double p = s.facts[b.first + i].stall();
    for (auto [after, w] : successors[i]) p = std::max(p, w + priority[after]);
    priority[i] = p;
  }
  return priority;
}

struct Annealer {
  const KernelSchedule& s;
  const CostModel& model;
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  bool out_of_time() const { return std::chrono::steady_clock::now() > deadline; }
  std::vector<double> weights;
  std::vector<std::size_t> movable_blocks;  // schedule block indices
  std::vector<double> pick_weight;          // cumulative, for choosing a block

  Annealer(const KernelSchedule& schedule, const CostModel& m) : s(schedule), model(m) {
    weights = block_weights(s, model);
    double total = 0;
    for (std::size_t b = 0; b < s.blocks.size(); ++b) {
      if (!s.blocks[b].movable()) continue;
      movable_blocks.push_back(b);
      total += weights[b] * static_cast<double>(s.blocks[b].count);
      pick_weight.push_back(total);
    }
  }

  std::size_t pick_block(Random& r) const {
    double x = r.unit() * pick_weight.back();
    return movable_blocks[static_cast<std::size_t>(std::upper_bound(pick_weight.begin(), pick_weight.end(), x) - pick_weight.begin()) %
                          movable_blocks.size()];
  }
};

std::size_t count_raised(const StallPlan& stalls, const StallPlan& original) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < stalls.size(); ++i) n += stalls[i] != original[i];
  return n;
}

struct Pool {
  std::size_t capacity;
  std::uint64_t identity_hash;
  StallPlan original_stalls_;
  std::vector<Candidate> items;
  std::set<std::uint64_t> seen;

  // `slack`: how much worse than the original (relative) a candidate may be by the model and
  // still be measured: heuristics the single-warp model cannot judge (hoisted loads overlap
  // other warps' work) are offered at the model's "no worse".
  void offer(const Order& order, const StallPlan& stalls, double cycles, double original, const std::string& strategy,
             double slack = -1e-12) {
    if (cycles > original * (1 + slack) || order_hash(order) == identity_hash) return;
    std::uint64_t h = order_hash(order, stalls);
    if (seen.count(h)) return;
    seen.insert(h);
    Candidate c;
    c.strategy = strategy;
    c.order = order;
    c.stalls = stalls;
    c.model_cycles = cycles;
    c.model_gain = original / cycles - 1;
    c.moved = count_moved(order);
    c.stalls_raised = count_raised(stalls, original_stalls_);
    items.push_back(std::move(c));
    std::sort(items.begin(), items.end(), [](const Candidate& a, const Candidate& b) {
      return a.model_cycles != b.model_cycles ? a.model_cycles < b.model_cycles : a.moved < b.moved;
    });
    if (items.size() > capacity) items.resize(capacity);
  }
};

void anneal(const Annealer& a, const SearchOptions& options, Order order, StallPlan stalls, bool raise_stalls,
            const std::string& strategy, Random& random, double original_cycles, Pool& pool, SearchResult& result) {
  const KernelSchedule& s = a.s;
  if (a.movable_blocks.empty()) return;
  std::vector<double> cycles(s.blocks.size());
  double total = 0;
  for (std::size_t b = 0; b < s.blocks.size(); ++b) total += a.weights[b] * (cycles[b] = block_cycles(s, a.model, order, b, stalls));
  double best = total;
  for (int step = 0; step < options.steps; ++step) {
    if ((step & 255) == 0 && a.out_of_time()) {
      result.stopped_by_time = true;
      return;
    }
    double temperature = options.start_temperature * original_cycles * (1.0 - static_cast<double>(step) / options.steps);
    std::size_t bi = a.pick_block(random);
    const BlockSchedule& b = s.blocks[bi];
    std::size_t from = b.first + random.below(b.count);
    std::size_t span = std::min<std::size_t>(b.count - 1, 12);
    std::ptrdiff_t delta = static_cast<std::ptrdiff_t>(random.below(2 * span + 1)) - static_cast<std::ptrdiff_t>(span);
    std::ptrdiff_t to = static_cast<std::ptrdiff_t>(from) + delta;
    if (delta == 0 || to < static_cast<std::ptrdiff_t>(b.first) || to >= static_cast<std::ptrdiff_t>(b.first + b.count)) continue;
    Order before(order.begin() + static_cast<std::ptrdiff_t>(b.first), order.begin() + static_cast<std::ptrdiff_t>(b.first + b.count));
    StallPlan stalls_before = stalls;
    if (!try_move(s, order, from, static_cast<std::size_t>(to), raise_stalls ? &stalls : nullptr)) continue;
    ++result.legal_moves_tried;
    double c = block_cycles(s, a.model, order, bi, stalls);
    double change = a.weights[bi] * (c - cycles[bi]);
    if (change <= 0 || (temperature > 0 && random.unit() < std::exp(-change / temperature))) {
      ++result.legal_moves_accepted;
      total += change;
      cycles[bi] = c;
      if (total < best - 1e-9) {
        best = total;
        StallPlan relaxed = stalls;
        relax_stalls(s, order, relaxed);
        pool.offer(order, raise_stalls ? relaxed : StallPlan{}, estimate_cost(s, a.model, order, relaxed).cycles, original_cycles,
                   strategy);
      }
    } else {
      std::copy(before.begin(), before.end(), order.begin() + static_cast<std::ptrdiff_t>(b.first));
      stalls = std::move(stalls_before);
    }
  }
}


// First-improvement descent over single moves (at most `reach` slots away) in the blocks by
// weight, until no move helps or `budget` moves were evaluated: finds the rare improving moves
// that random annealing steps miss in a long block.
Order descend(const Annealer& a, Order order, std::size_t reach, std::size_t budget, SearchResult& result,
              StallPlan* stalls = nullptr) {
  StallPlan none;
  const StallPlan& plan = stalls ? *stalls : none;
  const KernelSchedule& s = a.s;
  std::vector<std::size_t> blocks = a.movable_blocks;
  std::sort(blocks.begin(), blocks.end(), [&](std::size_t x, std::size_t y) {
    return a.weights[x] * static_cast<double>(s.blocks[x].count) > a.weights[y] * static_cast<double>(s.blocks[y].count);
  });
  std::size_t evaluated = 0;
  for (std::size_t bi : blocks) {
    const BlockSchedule& b = s.blocks[bi];
    double current = block_cycles(s, a.model, order, bi, plan);
    bool improved = true;
    while (improved && evaluated < budget) {
      improved = false;
      if (a.out_of_time()) {
        result.stopped_by_time = true;
        return order;
      }
      for (std::size_t from = b.first; from < b.first + b.count && !improved && evaluated < budget; ++from) {
        std::size_t lo = from > b.first + reach ? from - reach : b.first;
        std::size_t hi = std::min(b.first + b.count - 1, from + reach);
        for (std::size_t to = lo; to <= hi && !improved; ++to) {
          if (to == from) continue;
          Order before(order.begin() + static_cast<std::ptrdiff_t>(b.first), order.begin() + static_cast<std::ptrdiff_t>(b.first + b.count));
          StallPlan stalls_before = plan;
          if (!try_move(s, order, from, to, stalls)) continue;
          ++evaluated;
          ++result.legal_moves_tried;
          double c = block_cycles(s, a.model, order, bi, plan);
          if (c < current - 1e-9) {
            current = c;
            improved = true;
            ++result.legal_moves_accepted;
          } else {
            std::copy(before.begin(), before.end(), order.begin() + static_cast<std::ptrdiff_t>(b.first));
            if (stalls) *stalls = std::move(stalls_before);
          }
        }
      }
    }
  }
  return order;
}

// Every global, local and texture load of the weighted blocks raised to the earliest slot the
// dependences allow (CuAsmRL's most frequent winning move): more loads in flight per warp.
Order hoist_loads(const Annealer& a, Order order, StallPlan* stalls = nullptr) {
  const KernelSchedule& s = a.s;
  for (std::size_t bi : a.movable_blocks) {
    const BlockSchedule& b = s.blocks[bi];
    for (std::size_t slot = b.first; slot < b.first + b.count; ++slot) {
      const InstructionFacts& f = s.facts[order[slot]];
      if (f.info.cls != OpcodeClass::load ||
          (f.info.space != MemorySpace::global && f.info.space != MemorySpace::local && f.info.space != MemorySpace::texture))
        continue;
      for (std::size_t to = b.first; to < slot; ++to)
        if (try_move(s, order, slot, to, stalls)) break;
    }
  }
  return order;
}
}  // namespace

Order list_schedule(const KernelSchedule& s, const CostModel& model) {
  Order order = identity_order(s);
  if (!s.problems.empty()) return order;
  for (const BlockSchedule& b : s.blocks) {
    if (!b.movable()) continue;
    std::vector<double> priority = block_priorities(s, model, b);
    std::vector<std::size_t> waiting(b.count);
    std::vector<std::vector<std::uint32_t>> successors(b.count);
    for (std::uint32_t i = 0; i < b.count; ++i) {
      waiting[i] = b.predecessors[i].size();
      for (std::uint32_t p : b.predecessors[i]) successors[p].push_back(i);
    }
    std::vector<std::vector<const DistanceConstraint*>> into(b.count);
    for (const DistanceConstraint& d : b.distances)
      if (d.consumer != DistanceConstraint::kBlockEnd) into[d.consumer].push_back(&d);
    std::vector<std::uint32_t> placed_at(b.count, UINT32_MAX);
    std::vector<int> cycles_before_slot{0};  // issue cycle of each slot
    std::vector<bool> done(b.count, false);
    for (std::size_t slot = 0; slot < b.count; ++slot) {
      auto fits = [&](std::uint32_t i) {
        for (const DistanceConstraint* d : into[i]) {
          int from = d->producer == DistanceConstraint::kBlockStart ? 0 : cycles_before_slot[placed_at[d->producer]];
          if (cycles_before_slot[slot] - from < d->cycles) return false;
        }
        return true;
      };
      std::uint32_t pick = UINT32_MAX, fallback = UINT32_MAX;
      for (std::uint32_t i = 0; i < b.count; ++i) {
        if (done[i] || waiting[i] != 0) continue;
        if (fallback == UINT32_MAX) fallback = i;
        if (fits(i) && (pick == UINT32_MAX || priority[i] > priority[pick])) pick = i;
      }
      if (pick == UINT32_MAX) pick = fallback;
      done[pick] = true;
      placed_at[pick] = static_cast<std::uint32_t>(slot);
      order[b.first + slot] = static_cast<std::uint32_t>(b.first + pick);
      cycles_before_slot.push_back(cycles_before_slot.back() + s.facts[b.first + pick].stall());
      for (std::uint32_t succ : successors[pick]) --waiting[succ];
    }
  }
  // Blocks the greedy pass could not keep legal go back to their original order.
  for (const BlockSchedule& b : s.blocks) {
    Order probe = identity_order(s);
    std::copy(order.begin() + static_cast<std::ptrdiff_t>(b.first), order.begin() + static_cast<std::ptrdiff_t>(b.first + b.count),
              probe.begin() + static_cast<std::ptrdiff_t>(b.first));
    if (!check_order(s, probe).empty())
      for (std::size_t i = b.first; i < b.first + b.count; ++i) order[i] = static_cast<std::uint32_t>(i);
  }
  return order;
}

SearchResult search_schedules(const KernelSchedule& s, const CostModel& model, const SearchOptions& options) {
  SearchResult result;
  Order original = identity_order(s);
  result.original_cycles = estimate_cost(s, model, original).cycles;
  if (!s.problems.empty() || options.candidates <= 0) return result;
  Pool pool{static_cast<std::size_t>(options.candidates) * 4, order_hash(original), original_stalls(s), {}, {}};
  Annealer annealer(s, model);
  if (annealer.movable_blocks.empty()) return result;
  annealer.deadline = std::chrono::steady_clock::now() +
                      std::chrono::milliseconds(static_cast<long long>(options.time_limit_s * 1000));
  auto cost = [&](const Order& o, const StallPlan& st = {}) { return estimate_cost(s, model, o, st).cycles; };
  Order listed = list_schedule(s, model);
  pool.offer(listed, {}, cost(listed), result.original_cycles, "list");
  const std::size_t budget = static_cast<std::size_t>(options.steps) * 4;
  Order descended = descend(annealer, original, 16, budget, result);
  pool.offer(descended, {}, cost(descended), result.original_cycles, "descent");
  Order hoisted = hoist_loads(annealer, original);
  pool.offer(hoisted, {}, cost(hoisted), result.original_cycles, "hoist-loads", 0.01);
  Order hoisted_descended = descend(annealer, hoisted, 16, budget, result);
  pool.offer(hoisted_descended, {}, cost(hoisted_descended), result.original_cycles, "hoist-loads+descent", 0.01);
  Random random(options.seed);
  anneal(annealer, options, descended, {}, false, "anneal", random, result.original_cycles, pool, result);
  anneal(annealer, options, listed, {}, false, "anneal+list", random, result.original_cycles, pool, result);
  if (options.raise_stalls) {
    // The same with stalls raised where a move shortens a distance (then lowered back where
    // they can be): moves a fixed-control swap cannot make.
    StallPlan stalls = original_stalls(s);
    Order hs = hoist_loads(annealer, original, &stalls);
    hs = descend(annealer, hs, 16, budget, result, &stalls);
    relax_stalls(s, hs, stalls);
    pool.offer(hs, stalls, cost(hs, stalls), result.original_cycles, "hoist-loads+descent+stalls", 0.01);
    StallPlan ds = original_stalls(s);
    Order d2 = descend(annealer, original, 16, budget, result, &ds);
    relax_stalls(s, d2, ds);
    pool.offer(d2, ds, cost(d2, ds), result.original_cycles, "descent+stalls");
    anneal(annealer, options, d2, ds, true, "anneal+stalls", random, result.original_cycles, pool, result);
  }

  // The best order one block at a time, for the hottest blocks it changes: a measured gain can
  // then be traced to a block.
  std::vector<Candidate> chosen;
  std::set<std::uint64_t> chosen_hashes;
  auto take = [&](const Candidate& c) {
    if (chosen.size() >= static_cast<std::size_t>(options.candidates) ||
        !chosen_hashes.insert(order_hash(c.order, c.stalls)).second)
      return;
    chosen.push_back(c);
  };
  if (!pool.items.empty()) {
    const Candidate best = pool.items.front();
    take(best);
    std::vector<double> weights = block_weights(s, model);
    std::vector<std::pair<double, std::size_t>> changed;
    for (std::size_t b = 0; b < s.blocks.size(); ++b) {
      const BlockSchedule& blk = s.blocks[b];
      bool moved = false;
      for (std::size_t i = blk.first; i < blk.first + blk.count && !moved; ++i) moved = best.order[i] != i;
      if (!moved) continue;
      double saved = weights[b] * (block_cycles(s, model, original, b) - block_cycles(s, model, best.order, b, best.stalls));
      changed.push_back({-saved, b});
    }
    std::sort(changed.begin(), changed.end());
    if (changed.size() > 1 || !best.stalls.empty())
      for (std::size_t k = 0; k < changed.size() && k < 3; ++k) {
        const BlockSchedule& blk = s.blocks[changed[k].second];
        Order one = original;
        std::copy(best.order.begin() + static_cast<std::ptrdiff_t>(blk.first),
                  best.order.begin() + static_cast<std::ptrdiff_t>(blk.first + blk.count),
                  one.begin() + static_cast<std::ptrdiff_t>(blk.first));
        StallPlan one_stalls;
        if (!best.stalls.empty()) {
          one_stalls = original_stalls(s);
          std::copy(best.stalls.begin() + static_cast<std::ptrdiff_t>(blk.first),
                    best.stalls.begin() + static_cast<std::ptrdiff_t>(blk.first + blk.count),
                    one_stalls.begin() + static_cast<std::ptrdiff_t>(blk.first));
        }
        if (!check_order(s, one, one_stalls).empty()) continue;
        double cycles = estimate_cost(s, model, one, one_stalls).cycles;
        if (cycles >= result.original_cycles) continue;
        char name[48];
        std::snprintf(name, sizeof name, "block %04llx", static_cast<unsigned long long>(s.function->instructions[blk.first].address));
        Candidate c;
        c.strategy = name;
        c.order = one;
        c.stalls = one_stalls;
        c.stalls_raised = count_raised(one_stalls, pool.original_stalls_);
        c.model_cycles = cycles;
        c.model_gain = result.original_cycles / cycles - 1;
        c.moved = count_moved(one);
        take(c);
      }
  }
  for (const Candidate& c : pool.items) take(c);
  std::sort(chosen.begin(), chosen.end(), [](const Candidate& a, const Candidate& b) {
    return a.model_cycles != b.model_cycles ? a.model_cycles < b.model_cycles : a.moved < b.moved;
  });
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    chosen[i].id = (i + 1 < 10 ? "c0" : "c") + std::to_string(i + 1);
  }
  result.candidates = std::move(chosen);
  return result;
}

std::vector<MovedInstruction> moved_instructions(const Order& order) {
  std::vector<MovedInstruction> moves;
  for (std::size_t slot = 0; slot < order.size(); ++slot)
    if (order[slot] != slot) moves.push_back({order[slot], order[slot], slot});
  return moves;
}

}  // namespace gpuport::tune
