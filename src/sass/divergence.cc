#include "sass/divergence.h"

#include "common/json.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <functional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sass/defuse.h"
#include "sass/dominators.h"

namespace gpuport::sass {

std::string_view mechanism_name(DivergenceMechanism m) {
  switch (m) {
    case DivergenceMechanism::ssy_sync: return "ssy_sync";
    case DivergenceMechanism::bssy_bsync: return "bssy_bsync";
    case DivergenceMechanism::warpsync: return "warpsync";
    case DivergenceMechanism::predication: return "predication";
    case DivergenceMechanism::uniform_branch: return "uniform_branch";
    case DivergenceMechanism::break_exit: return "break";
    case DivergenceMechanism::call: return "call";
    case DivergenceMechanism::exit: return "exit";
    case DivergenceMechanism::unmarked: return "unmarked";
    case DivergenceMechanism::other: return "other";
  }
  return "other";
}

std::string_view placement_name(ReconvergencePlacement p) {
  switch (p) {
    case ReconvergencePlacement::none: return "none";
    case ReconvergencePlacement::at_ipdom: return "at_ipdom";
    case ReconvergencePlacement::deferred: return "deferred";
    case ReconvergencePlacement::other: return "not_postdominating";
  }
  return "none";
}

namespace {

// Why an instruction's results differ between lanes regardless of its inputs; empty if they do not.
std::string divergence_source(const SassInstruction& in) {
  const std::string& op = in.opcode;
  if (op == "S2R" || op == "CS2R") {
    for (const auto& o : in.operands) {
      if (o.kind != OperandKind::special_reg) continue;
      std::string_view t = o.text.view();
      if (t.starts_with("SR_TID") || t.find("LANEID") != std::string_view::npos ||
          t.find("MASK") != std::string_view::npos || t.find("CLOCK") != std::string_view::npos ||
          t.find("TIMER") != std::string_view::npos)
        return std::string(t);
    }
    return {};
  }
  if ((op.starts_with("LD") && op != "LDC") || op.starts_with("ATOM") || op == "RED" || op == "SHFL" ||
      op == "MATCH" || op.starts_with("TEX") || op.starts_with("TLD") || op.starts_with("SULD") ||
      op.starts_with("SUATOM") || op == "ELECT" || op == "QSPC" || op == "CCTL")
    return op;
  return {};
}

bool writes_uniform_file(const RegisterRef& r) { return r.file == RegisterFile::ur || r.file == RegisterFile::up; }

std::string instruction_head(const SassInstruction& in) {
  std::string s;
  if (in.guard) {
    s += "@";
    if (in.guard->negated) s += "!";
    s += in.guard->uniform ? "UP" : "P";
    s += in.guard->index == 7 ? "T" : std::to_string(in.guard->index);
    s += " ";
  }
  s += in.opcode;
  for (const auto& m : in.modifiers) { s += "."; s += m; }
  return s;
}

}  // namespace

DivergenceReport analyze_divergence(const SassFunction& function, int arch) {
  DivergenceReport report;
  report.function = function.name;
  report.arch = arch;
  const ControlFlowGraph cfg = build_cfg(function, arch);
  report.problems = cfg.problems;
  const auto du = def_use(function);
  const ValueGraph values = build_value_graph(cfg, du);
  const DominatorTree dom = compute_dominators(cfg);
  const DominatorTree pdom = compute_post_dominators(cfg);
  const std::size_t n = function.instructions.size();
  const std::size_t nb = cfg.block_count();
  const std::size_t nv = values.values.size();
  const auto& definitions = values.definitions;
  constexpr std::uint32_t none = ValueGraph::none;

  std::vector<std::vector<std::size_t>> defs_of(n);
  for (std::size_t d = 0; d < definitions.size(); ++d) defs_of[definitions[d].instruction].push_back(d);
  // Who reads each value (merges and partial definitions), for propagating facts forward.
  std::vector<std::vector<std::uint32_t>> users(nv);
  for (std::uint32_t v = 0; v < nv; ++v)
    for (std::uint32_t o : values.values[v].operands)
      if (o != none) users[o].push_back(v);
  auto block_of_value = [&](std::uint32_t v) -> std::size_t {
    return cfg.block_of[definitions[values.values[v].definition].instruction];
  };

  // Per value: up to two of the definitions that reach it. None: a use reads the live-in value;
  // two: several definitions meet (what sync dependence needs). Each changes at most twice.
  std::vector<std::array<std::uint32_t, 2>> leaves(nv, {none, none});
  {
    std::vector<std::uint32_t> work;
    auto add = [&](std::uint32_t v, std::uint32_t d) {
      auto& l = leaves[v];
      if (d == none || l[0] == d || l[1] == d || l[1] != none) return false;
      (l[0] == none ? l[0] : l[1]) = d;
      return true;
    };
    for (std::uint32_t v = 0; v < nv; ++v)
      if (values.values[v].kind == ValueGraph::Kind::definition && add(v, values.values[v].definition)) work.push_back(v);
    while (!work.empty()) {
      const std::uint32_t v = work.back();
      work.pop_back();
      for (std::uint32_t u : users[v]) {
        bool grew = false;
        for (std::uint32_t d : leaves[v]) grew |= add(u, d);
        if (grew) work.push_back(u);
      }
    }
  }
  // The value instruction i reads for register r; none when it reads no r.
  auto value_read = [&](std::size_t i, RegisterRef r) {
    for (std::size_t u = 0; u < du[i].uses.size(); ++u)
      if (du[i].uses[u] == r) return values.use_values[i][u];
    return none;
  };

  auto is_transfer = [&](std::size_t i) { return cfg.control_of[i] != ControlKind::none; };
  // A transfer that can send lanes different ways: a guarded one, or an indirect branch (BRX/JMX,
  // a k-way switch through a jump table) whatever its guard.
  auto decides = [&](std::size_t i) {
    return is_conditional(function.instructions[i]) || cfg.control_of[i] == ControlKind::indirect;
  };

  // The registers a conditional transfer decides on.
  auto condition_regs = [&](std::size_t i) {
    std::vector<RegisterRef> regs;
    const auto& in = function.instructions[i];
    if (in.guard && in.guard->index != 7)
      regs.push_back({in.guard->uniform ? RegisterFile::up : RegisterFile::p, in.guard->index});
    for (const auto& o : in.operands) {
      if (o.kind == OperandKind::predicate && o.index != 7) regs.push_back({RegisterFile::p, o.index});
      if (o.kind == OperandKind::uniform_predicate && o.index != 7) regs.push_back({RegisterFile::up, o.index});
      if (o.kind == OperandKind::reg && o.index != 255 &&
          (cfg.control_of[i] == ControlKind::indirect || cfg.control_of[i] == ControlKind::warpsync))
        regs.push_back({RegisterFile::r, o.index});
    }
    return regs;
  };

  // Uniformity: fixed point over definitions, with sync dependence through divergent branches.
  // A value is divergent when a divergent definition reaches it (propagated forward through
  // the value graph as definitions become divergent).
  std::vector<char> div_def(definitions.size(), 0);
  std::vector<std::string> why_def(definitions.size());
  std::vector<char> div_branch(n, 0);
  std::vector<std::string> why_branch(n);
  std::vector<char> div_value(nv, 0);
  std::vector<std::uint32_t> why_value(nv, none);  // the divergent definition that reaches it
  auto mark_definition = [&](std::size_t d, std::string why) {
    div_def[d] = 1;
    why_def[d] = std::move(why);
    std::vector<std::uint32_t> work = {values.definition_value[d]};
    while (!work.empty()) {
      const std::uint32_t v = work.back();
      work.pop_back();
      if (div_value[v]) continue;
      div_value[v] = 1;
      why_value[v] = static_cast<std::uint32_t>(d);
      for (std::uint32_t u : users[v]) work.push_back(u);
    }
  };
  auto reg_divergent = [&](std::size_t i, RegisterRef r, std::string* why) {
    if (writes_uniform_file(r)) return false;
    const std::uint32_t v = value_read(i, r);
    if (v == none) return false;
    if (leaves[v][0] == none) {
      if (why) *why = register_name(r) + " live-in";
      return true;
    }
    if (!div_value[v]) return false;
    if (why) *why = why_def[why_value[v]];
    return true;
  };

  // Natural loops (by header), each with its blocks, the transfers whose edges leave it, and
  // its place in the loop nesting (natural loops are nested or disjoint).
  struct LoopBody {
    std::size_t header = 0;
    std::vector<std::size_t> blocks;          // sorted
    std::vector<std::size_t> exit_transfers;  // instructions
    std::size_t parent = DominatorTree::none;  // the innermost loop around it
  };
  std::vector<LoopBody> loop_bodies;
  std::vector<std::size_t> innermost_loop(nb, DominatorTree::none);
  {
    std::map<std::size_t, std::vector<std::size_t>> by_header;
    for (std::size_t e : back_edges(cfg, dom)) by_header[cfg.edges[e].to].push_back(cfg.edges[e].from);
    std::vector<std::size_t> stamp(nb, DominatorTree::none);  // loop index whose body holds the block
    for (const auto& [header, sources] : by_header) {
      const std::size_t id = loop_bodies.size();
      LoopBody l;
      l.header = header;
      stamp[header] = id;
      l.blocks.push_back(header);
      std::vector<std::size_t> work;
      for (std::size_t s : sources)
        if (stamp[s] != id) { stamp[s] = id; l.blocks.push_back(s); work.push_back(s); }
      while (!work.empty()) {
        std::size_t b = work.back();
        work.pop_back();
        for (std::size_t p : cfg.predecessor_blocks(b))
          if (stamp[p] != id && dom.contains(p)) { stamp[p] = id; l.blocks.push_back(p); work.push_back(p); }
      }
      std::sort(l.blocks.begin(), l.blocks.end());
      for (std::size_t b : l.blocks) {
        if (cfg.blocks[b].is_virtual_exit) continue;
        for (std::size_t e : cfg.blocks[b].successors)
          if (stamp[cfg.edges[e].to] != id && cfg.edges[e].instruction < n && is_transfer(cfg.edges[e].instruction) &&
              std::find(l.exit_transfers.begin(), l.exit_transfers.end(), cfg.edges[e].instruction) == l.exit_transfers.end())
            l.exit_transfers.push_back(cfg.edges[e].instruction);
      }
      loop_bodies.push_back(std::move(l));
    }
    // Nesting: outer loops first, so each block ends with its innermost loop.
    std::vector<std::size_t> order(loop_bodies.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
      return loop_bodies[x].blocks.size() > loop_bodies[y].blocks.size();
    });
    for (std::size_t k : order) {
      loop_bodies[k].parent = innermost_loop[loop_bodies[k].header];
      for (std::size_t b : loop_bodies[k].blocks) innermost_loop[b] = k;
    }
  }
  auto in_loop = [&](std::size_t l, std::size_t b) {
    for (std::size_t x = innermost_loop[b]; x != DominatorTree::none; x = loop_bodies[x].parent)
      if (x == l) return true;
    return false;
  };
  auto loop_has_divergent_exit = [&](std::size_t l) {
    for (std::size_t x : loop_bodies[l].exit_transfers)
      if (div_branch[x]) return x;
    return n;
  };

  // Facts about the definitions reaching a value, summarised so that they propagate through the
  // value graph in linear time instead of being asked of every reaching definition:
  //  - Loops: the intersection of the bodies of the loops with a divergent exit that hold a
  //    reaching definition (temporal divergence: a use outside that intersection sees a value
  //    that lanes left the loop with at different iterations). Natural loops nest, so the
  //    intersection is the innermost of them, or empty.
  //  - Regions: the intersection of the regions of divergent branches (the blocks a branch
  //    strictly dominates and its ipdom strictly post-dominates) that hold a reaching
  //    definition (sync dependence: a use outside sees values made on one side of a divergent
  //    branch merged with others). Dominator subtrees nest and so do post-dominator subtrees,
  //    so the intersection is "strictly dominated by a and strictly post-dominated by p" for one
  //    pair (a, p), or empty.
  // Each summary keeps the branches (or loops) it came from, which name the reason.
  struct Summary {
    enum Kind : std::uint8_t { nothing, set, empty } kind = nothing;
    std::size_t a = 0, p = 0;                        // loops: a = the loop; regions: dominator, post-dominator roots
    std::size_t witness_a = 0, witness_p = 0;        // branch instructions behind a and p (regions)
    bool operator==(const Summary&) const = default;
  };
  // (The summary already held, x, keeps its witness when nothing narrows it: a meet that
  // swapped witnesses between equal summaries would never settle inside a loop.)
  auto meet_component = [](const DominatorTree& tree, std::size_t x, std::size_t wx, std::size_t y, std::size_t wy,
                           std::size_t& out, std::size_t& witness) {
    if (x == y) { out = x; witness = wx; return true; }
    if (tree.dominates(x, y)) { out = y; witness = wy; return true; }
    if (tree.dominates(y, x)) { out = x; witness = wx; return true; }
    return false;
  };
  auto meet_regions = [&](const Summary& x, const Summary& y) {
    if (x.kind == Summary::empty || y.kind == Summary::nothing) return x;
    if (y.kind == Summary::empty || x.kind == Summary::nothing) return y;
    Summary r;
    r.kind = Summary::set;
    if (!meet_component(dom, x.a, x.witness_a, y.a, y.witness_a, r.a, r.witness_a)) {
      r = {Summary::empty, 0, 0, x.witness_a, y.witness_a};
    } else if (!meet_component(pdom, x.p, x.witness_p, y.p, y.witness_p, r.p, r.witness_p)) {
      r = {Summary::empty, 0, 0, x.witness_p, y.witness_p};
    }
    return r;
  };
  auto loop_within = [&](std::size_t inner, std::size_t outer) {
    for (std::size_t x = inner; x != DominatorTree::none; x = loop_bodies[x].parent)
      if (x == outer) return true;
    return false;
  };
  auto meet_loops = [&](const Summary& x, const Summary& y) {
    if (x.kind == Summary::empty || y.kind == Summary::nothing) return x;
    if (y.kind == Summary::empty || x.kind == Summary::nothing) return y;
    if (loop_within(x.a, y.a)) return x;
    if (loop_within(y.a, x.a)) return y;
    return Summary{Summary::empty, x.a, y.a, 0, 0};
  };
  // The value graph's strongly connected components (loop-carried merges), operands' before
  // their users' (Tarjan's algorithm over operand edges emits them in that order), so that a
  // fact settles in one pass outside loops: a worklist in arbitrary order is quadratic on long
  // chains, each new fact rippling down every later merge.
  std::vector<std::vector<std::uint32_t>> components;
  {
    std::vector<std::uint32_t> index(nv, none), low(nv, 0), stack;
    std::vector<char> on_stack(nv, 0);
    std::vector<std::pair<std::uint32_t, std::size_t>> dfs;  // node, next operand
    std::uint32_t counter = 0;
    for (std::uint32_t root = 0; root < nv; ++root) {
      if (index[root] != none) continue;
      dfs.emplace_back(root, 0);
      index[root] = low[root] = counter++;
      stack.push_back(root);
      on_stack[root] = 1;
      while (!dfs.empty()) {
        auto& [v, next] = dfs.back();
        const auto& ops = values.values[v].operands;
        if (next < ops.size()) {
          const std::uint32_t o = ops[next++];
          if (o == none) continue;
          if (index[o] == none) {
            index[o] = low[o] = counter++;
            stack.push_back(o);
            on_stack[o] = 1;
            dfs.emplace_back(o, 0);
          } else if (on_stack[o]) {
            low[v] = std::min(low[v], index[o]);
          }
          continue;
        }
        const std::uint32_t done = v;
        dfs.pop_back();
        if (!dfs.empty()) low[dfs.back().first] = std::min(low[dfs.back().first], low[done]);
        if (low[done] == index[done]) {
          std::vector<std::uint32_t> c;
          std::uint32_t w;
          do {
            w = stack.back();
            stack.pop_back();
            on_stack[w] = 0;
            c.push_back(w);
          } while (w != done);
          components.push_back(std::move(c));
        }
      }
    }
  }
  // Meets each value's summary (its own, as a definition) with its operands', components in
  // order, iterating inside a component until nothing changes.
  auto propagate = [&](std::vector<Summary>& summary, auto meet) {
    for (const auto& c : components) {
      for (bool changed = true; changed;) {
        changed = false;
        for (std::uint32_t u : c)
          for (std::uint32_t o : values.values[u].operands) {
            if (o == none) continue;
            Summary next = meet(summary[u], summary[o]);
            if (next == summary[u]) continue;
            summary[u] = next;
            changed = c.size() > 1;
          }
      }
    }
  };
  std::vector<Summary> region_summary(nv), loop_summary(nv);
  // The branch blocks whose regions are exits (their ipdom is the virtual exit): such a region
  // is everything the branch dominates, so it is found up the dominator tree, not enumerated.
  std::vector<std::size_t> preorder_blocks;
  for (std::size_t b = 0; b < nb; ++b)
    if (dom.contains(b)) preorder_blocks.push_back(b);
  std::sort(preorder_blocks.begin(), preorder_blocks.end(),
            [&](std::size_t x, std::size_t y) { return dom.preorder[x] < dom.preorder[y]; });
  auto summarise = [&] {
    // Per block: the regions of divergent branches that hold it (all of them lie on its
    // dominator and post-dominator ancestor paths, so their intersection is the deepest a and
    // the deepest p).
    std::vector<Summary> block_regions(nb);
    std::vector<std::size_t> exit_branch_of(nb, n);  // a divergent branch in the block whose ipdom is the exit
    std::vector<std::size_t> region_stamp(nb, n);    // the branch whose region walk saw the block last
    for (std::size_t j = 0; j < n; ++j) {
      if (!div_branch[j]) continue;
      const std::size_t bj = cfg.block_of[j];
      auto ip = pdom.immediate(bj);
      if (!ip) continue;
      if (cfg.blocks[*ip].is_virtual_exit) {
        if (exit_branch_of[bj] == n) exit_branch_of[bj] = j;
        continue;
      }
      // The region, walked from the branch: blocks it dominates, short of the ipdom (every path
      // from the branch reaches the ipdom, so nothing else is post-dominated by it).
      std::vector<std::size_t> work;
      for (std::size_t s : cfg.successor_blocks(bj)) work.push_back(s);
      while (!work.empty()) {
        const std::size_t x = work.back();
        work.pop_back();
        if (x == bj || x == *ip || !dom.strictly_dominates(bj, x) || !pdom.strictly_dominates(*ip, x)) continue;
        if (region_stamp[x] == j) continue;
        region_stamp[x] = j;
        block_regions[x] = meet_regions(block_regions[x], Summary{Summary::set, bj, *ip, j, j});
        for (std::size_t s : cfg.successor_blocks(x)) work.push_back(s);
      }
    }
    std::vector<std::size_t> nearest_exit_branch(nb, n);  // strict dominator ancestor with an exit region
    for (std::size_t b : preorder_blocks) {
      if (auto parent = dom.immediate(b))
        nearest_exit_branch[b] = exit_branch_of[*parent] != n ? exit_branch_of[*parent] : nearest_exit_branch[*parent];
      if (nearest_exit_branch[b] != n && pdom.contains(b) && !cfg.blocks[b].is_virtual_exit) {
        const std::size_t j = nearest_exit_branch[b];
        block_regions[b] = meet_regions(block_regions[b], Summary{Summary::set, cfg.block_of[j], cfg.exit, j, j});
      }
    }
    std::vector<Summary> block_loops(nb);
    for (std::size_t b = 0; b < nb; ++b)
      for (std::size_t l = innermost_loop[b]; l != DominatorTree::none; l = loop_bodies[l].parent)
        if (loop_has_divergent_exit(l) != n) {
          block_loops[b] = Summary{Summary::set, l, 0, 0, 0};
          break;
        }
    for (std::uint32_t v = 0; v < nv; ++v) {
      const bool leaf = values.values[v].kind == ValueGraph::Kind::definition;
      region_summary[v] = leaf ? block_regions[block_of_value(v)] : Summary{};
      loop_summary[v] = leaf ? block_loops[block_of_value(v)] : Summary{};
    }
    propagate(region_summary, meet_regions);
    propagate(loop_summary, meet_loops);
  };
  // Whether block x lies in branch j's region.
  auto in_region = [&](std::size_t j, std::size_t x) {
    const std::size_t bj = cfg.block_of[j];
    auto ip = pdom.immediate(bj);
    if (!ip || x == bj || x == *ip) return false;
    return dom.dominates(bj, x) && pdom.strictly_dominates(*ip, x);
  };
  // Sync dependence at a use in block `ub` of value v: definitions made in a divergent branch's
  // region meet others outside it. Returns the branch, or n.
  auto merging_branch = [&](std::uint32_t v, std::size_t ub) {
    const Summary& s = region_summary[v];
    if (s.kind == Summary::nothing || leaves[v][1] == none) return n;
    if (s.kind == Summary::empty) return !in_region(s.witness_a, ub) ? s.witness_a : s.witness_p;
    if (!dom.strictly_dominates(s.a, ub)) return s.witness_a;
    if (!pdom.strictly_dominates(s.p, ub)) return s.witness_p;
    return n;
  };
  // Temporal divergence at a use in block `ub` of value v: the reason, or empty.
  auto temporal = [&](std::uint32_t v, std::size_t ub) -> std::string {
    const Summary& s = loop_summary[v];
    if (s.kind == Summary::nothing) return {};
    std::size_t l = s.a;
    if (s.kind == Summary::empty) l = in_loop(s.a, ub) ? s.p : s.a;
    else if (in_loop(l, ub)) return {};
    const std::size_t x = loop_has_divergent_exit(l);
    return fmt::format("value of the loop at {:04x}, left at different iterations (divergent exit at {:04x})",
                       function.instructions[cfg.blocks[loop_bodies[l].header].first].address,
                       function.instructions[x].address);
  };

  bool changed = true;
  while (changed) {
    changed = false;
    summarise();
    for (std::size_t i = 0; i < n; ++i) {
      const auto& in = function.instructions[i];
      const std::size_t ib = cfg.block_of[i];
      // Branch condition.
      if (is_transfer(i) && decides(i) && !div_branch[i]) {
        bool convergence_test = in.has_modifier("DIV") || in.has_modifier("CONV");
        if (!convergence_test)
          for (const auto& r : condition_regs(i)) {
            std::string why;
            bool divergent = reg_divergent(i, r, &why);
            if (!divergent) {
              const std::uint32_t v = value_read(i, r);
              if (v != none && !(why = temporal(v, ib)).empty()) divergent = true;
            }
            if (divergent) {
              div_branch[i] = 1;
              why_branch[i] = register_name(r) + " depends on " + why;
              changed = true;
              break;
            }
          }
      }
      if (defs_of[i].empty()) continue;
      bool all = true;
      for (std::size_t d : defs_of[i]) all = all && (div_def[d] || writes_uniform_file(definitions[d].reg));
      if (all) continue;
      std::string why = divergence_source(in);
      if (why.empty())
        for (std::size_t u = 0; u < du[i].uses.size() && why.empty(); ++u) {
          const RegisterRef reg = du[i].uses[u];
          const std::uint32_t v = values.use_values[i][u];
          if (reg_divergent(i, reg, &why)) break;
          if (const std::size_t j = merging_branch(v, ib); j != n)
            why = fmt::format("merge after divergent branch at {:04x}", function.instructions[j].address);
          else
            why = temporal(v, ib);
        }
      if (why.empty()) continue;
      for (std::size_t d : defs_of[i])
        if (!div_def[d] && !writes_uniform_file(definitions[d].reg)) {
          mark_definition(d, why);
          changed = true;
        }
    }
  }

  // Whether instruction k is a `kind` instruction (BSSY/BSYNC/BREAK) of convergence barrier Bn.
  auto on_barrier = [&](std::size_t k, ControlKind kind, int barrier) {
    if (cfg.control_of[k] != kind) return false;
    for (const auto& o : function.instructions[k].operands)
      if (o.kind == OperandKind::barrier && o.index == barrier) return true;
    return false;
  };
  // Whether instruction i is inside marker m's barrier region: it can reach a BSYNC of m's barrier
  // before any BSSY of that barrier (m's again, or a later region reusing the number), and the
  // lanes at i have not left the barrier by a BREAK of it earlier in the block.
  auto in_barrier_region = [&](const ReconvergenceMarker& m, std::size_t i) {
    auto uses_barrier = [&](std::size_t k, ControlKind kind) { return on_barrier(k, kind, m.barrier); };
    std::vector<char> seen(cfg.block_count(), 0);
    std::vector<std::size_t> work;
    const auto& first = cfg.blocks[cfg.block_of[i]];
    for (std::size_t k = first.first; k < i; ++k)
      if (uses_barrier(k, ControlKind::barrier_break)) return false;
    // The rest of the branch's own block first.
    for (std::size_t k = i; k <= first.last; ++k) {
      if (uses_barrier(k, ControlKind::barrier_set)) return false;
      if (uses_barrier(k, ControlKind::barrier_sync)) return true;
    }
    for (std::size_t s : cfg.successor_blocks(first.id)) work.push_back(s);
    while (!work.empty()) {
      std::size_t b = work.back();
      work.pop_back();
      if (seen[b] || cfg.blocks[b].is_virtual_exit) continue;
      seen[b] = 1;
      const auto& blk = cfg.blocks[b];
      bool stop = false;
      for (std::size_t k = blk.first; k <= blk.last && !stop; ++k) {
        if (uses_barrier(k, ControlKind::barrier_set)) stop = true;  // a new region of the barrier
        else if (uses_barrier(k, ControlKind::barrier_sync)) return true;
      }
      if (!stop)
        for (std::size_t s : cfg.successor_blocks(b)) work.push_back(s);
    }
    return false;
  };
  // BREAK Bx pairs by barrier number, SYNC/BRK/CONT with the innermost SSY/PBK/PCNT of their kind;
  // branches with the innermost marker whose target strictly post-dominates them.
  // The markers of each block, latest first, and per block the nearest dominator (itself
  // included) that holds a marker: the search for a branch's marker climbs only those blocks.
  std::vector<std::vector<const ReconvergenceMarker*>> markers_in(nb);
  for (const auto& m : cfg.reconvergence)
    if (m.resolved) markers_in[cfg.block_of[m.instruction]].push_back(&m);
  for (auto& list : markers_in)
    std::sort(list.begin(), list.end(), [](auto* x, auto* y) { return x->instruction > y->instruction; });
  std::vector<std::size_t> marker_block(nb, DominatorTree::none);
  for (std::size_t b : preorder_blocks) {
    if (!markers_in[b].empty()) marker_block[b] = b;
    else if (auto p = dom.immediate(b)) marker_block[b] = marker_block[*p];
  }
  auto pair_marker = [&](std::size_t i, int barrier, ControlKind kind) -> const ReconvergenceMarker* {
    const std::size_t b = cfg.block_of[i];
    // The deepest dominating block first, and in it the latest marker before the branch.
    for (std::size_t mb = dom.contains(b) ? marker_block[b] : DominatorTree::none; mb != DominatorTree::none;) {
      for (const ReconvergenceMarker* m : markers_in[mb]) {
        if (barrier >= 0 && m->barrier != barrier) continue;
        if (kind != ControlKind::none && m->kind != kind) continue;
        if (mb == b && m->instruction > i) continue;
        // A branch pairs with a BSSY whose target post-dominates it, or whose region it is in:
        // from the branch, the barrier's BSYNC is reachable before the BSSY runs again (a
        // `continue` inside a loop whose `break` paths leave the region by BREAK first).
        if (barrier < 0 && kind == ControlKind::none && !pdom.strictly_dominates(m->target_block, b) &&
            !(m->kind == ControlKind::barrier_set && in_barrier_region(*m, i)))
          continue;
        return m;
      }
      auto up = dom.immediate(mb);
      mb = up ? marker_block[*up] : DominatorTree::none;
    }
    return nullptr;
  };
  auto block_has = [&](std::size_t b, std::function<bool(std::size_t)> pred) {
    const auto& blk = cfg.blocks[b];
    if (blk.is_virtual_exit) return false;
    for (std::size_t k = blk.first; k <= blk.last; ++k)
      if (pred(k)) return true;
    return false;
  };

  // Whether a block begins (NOPs aside) with a WARPSYNC of the whole warp.
  auto starts_with_full_warpsync = [&](std::size_t b) {
    const auto& blk = cfg.blocks[b];
    if (blk.is_virtual_exit) return false;
    for (std::size_t k = blk.first; k <= blk.last; ++k) {
      const auto& in = function.instructions[k];
      if (in.opcode == "NOP") continue;
      if (in.opcode != "WARPSYNC" || in.guard) return false;
      if (in.has_modifier("ALL")) return true;
      return !in.operands.empty() && in.operands[0].kind == OperandKind::immediate &&
             in.operands[0].text.view() == "0xffffffff";
    }
    return false;
  };

  for (std::size_t i = 0; i < n; ++i) {
    const auto& in = function.instructions[i];
    const ControlKind ck = cfg.control_of[i];
    // Extras.
    if ((in.opcode == "BRA" || in.opcode == "JMP") && (in.has_modifier("U") || (in.guard && in.guard->uniform)))
      ++report.uniform_branch_instructions;
    if ((in.opcode == "BSSY" || in.opcode == "BSYNC" || in.opcode == "BREAK" || in.opcode == "WARPSYNC" ||
         in.opcode == "BMOV") && !in.modifiers.empty()) {
      std::string key = in.opcode;
      for (const auto& m : in.modifiers) { key += "."; key += m; }
      ++report.barrier_modifiers[key];
    }
    if (in.opcode == "WARPSYNC" && !in.has_modifier("ALL") && !in.operands.empty()) {
      const auto& o = in.operands[0];
      if (o.kind != OperandKind::immediate || o.text.view() != "0xffffffff") ++report.partial_warpsyncs;
    }
    if (ck == ControlKind::none) {
      if (in.guard && in.guard->index != 7) {
        RegisterRef g{in.guard->uniform ? RegisterFile::up : RegisterFile::p, in.guard->index};
        if (reg_divergent(i, g, nullptr)) ++report.predicated_divergent;
        else ++report.predicated_uniform;
      }
      continue;
    }
    if (!decides(i)) continue;
    if (ck == ControlKind::push_sync || ck == ControlKind::push_break || ck == ControlKind::push_continue ||
        ck == ControlKind::barrier_set || ck == ControlKind::barrier_sync)
      continue;  // guarded markers: not transfers
    BranchDivergence br;
    br.instruction = i;
    br.block = cfg.block_of[i];
    br.address = in.address;
    br.text = instruction_head(in);
    if (auto ip = pdom.immediate(br.block)) {
      br.has_ipdom = true;
      br.ipdom_block = *ip;
    }
    const bool convergence_test = in.has_modifier("DIV") || in.has_modifier("CONV");
    br.divergent = div_branch[i] != 0;
    if (br.divergent) br.reason = why_branch[i];
    else if (convergence_test) br.reason = "warp-wide convergence test";
    else {
      bool uni = false;
      for (const auto& r : condition_regs(i)) uni = uni || writes_uniform_file(r);
      br.reason = uni ? "uniform predicate" : "condition computed from uniform values";
    }
    int barrier = -1;
    if (ck == ControlKind::barrier_break)
      for (const auto& o : in.operands)
        if (o.kind == OperandKind::barrier) barrier = o.index;
    ControlKind pops = ck == ControlKind::pop_sync       ? ControlKind::push_sync
                       : ck == ControlKind::pop_break    ? ControlKind::push_break
                       : ck == ControlKind::pop_continue ? ControlKind::push_continue
                                                         : ControlKind::none;
    const ReconvergenceMarker* m = pair_marker(i, barrier, pops);
    if (m != nullptr) {
      br.has_marker = true;
      br.marker_instruction = m->instruction;
      br.barrier = m->barrier;
      br.has_reconvergence = true;
      br.reconvergence_block = m->target_block;
    } else if (ck == ControlKind::pop_sync || ck == ControlKind::pop_break || ck == ControlKind::pop_continue) {
      for (std::size_t e : cfg.blocks[br.block].successors)
        if (cfg.edges[e].kind == EdgeKind::reconvergence) {
          br.has_reconvergence = true;
          br.reconvergence_block = cfg.edges[e].to;
        }
    }
    if (br.has_reconvergence && !cfg.blocks[br.reconvergence_block].is_virtual_exit)
      br.reconvergence_address = function.instructions[cfg.blocks[br.reconvergence_block].first].address;

    // Mechanism.
    auto has_break_before = [&] {
      const auto& blk = cfg.blocks[br.block];
      for (std::size_t k = blk.first; k < i; ++k)
        if (cfg.control_of[k] == ControlKind::barrier_break || cfg.control_of[k] == ControlKind::pop_break) return true;
      return false;
    };
    // WARPSYNC.COLLECTIVE branches when the mask's threads are not converged: a warpsync whatever the mask.
    if (ck == ControlKind::warpsync) br.mechanism = DivergenceMechanism::warpsync;
    else if (!br.divergent && !convergence_test) br.mechanism = DivergenceMechanism::uniform_branch;
    else if (ck == ControlKind::call) br.mechanism = DivergenceMechanism::call;
    else if (convergence_test) br.mechanism = DivergenceMechanism::other;
    else if (ck == ControlKind::exit || ck == ControlKind::ret || ck == ControlKind::trap)
      br.mechanism = DivergenceMechanism::exit;
    else if (ck == ControlKind::barrier_break || ck == ControlKind::pop_break || ck == ControlKind::pop_continue ||
             has_break_before() || (m != nullptr && (m->kind == ControlKind::push_break || m->kind == ControlKind::push_continue)))
      br.mechanism = DivergenceMechanism::break_exit;
    else if (ck == ControlKind::pop_sync || (m != nullptr && m->kind == ControlKind::push_sync))
      br.mechanism = DivergenceMechanism::ssy_sync;
    else if (m != nullptr && m->kind == ControlKind::barrier_set)
      br.mechanism = DivergenceMechanism::bssy_bsync;
    else if (br.has_ipdom && starts_with_full_warpsync(br.ipdom_block)) {
      // No barrier of its own: the paths meet at an explicit __syncwarp() (WARPSYNC of the whole
      // warp) that the compiler relies on instead of a BSSY/BSYNC pair.
      br.mechanism = DivergenceMechanism::warpsync;
      br.has_reconvergence = true;
      br.reconvergence_block = br.ipdom_block;
      br.reconvergence_address = function.instructions[cfg.blocks[br.ipdom_block].first].address;
      br.reason += "; paths meet at the full-warp WARPSYNC that starts the ipdom";
    } else {
      // No barrier, SSY or WARPSYNC: nothing makes the paths wait for each other (on Volta and
      // later they may run on separately; the ipdom is where they could meet).
      br.mechanism = DivergenceMechanism::unmarked;
      br.reason += br.has_ipdom && cfg.blocks[br.ipdom_block].is_virtual_exit ? "; paths meet only at exit"
                                                                              : "; no reconvergence marker";
    }

    // Placement against the immediate post-dominator.
    if (br.divergent && br.has_reconvergence && br.has_ipdom &&
        br.mechanism != DivergenceMechanism::other && br.mechanism != DivergenceMechanism::exit &&
        br.mechanism != DivergenceMechanism::unmarked && br.mechanism != DivergenceMechanism::call &&
        ck != ControlKind::barrier_break) {  // BREAK leaves its barrier: no reconvergence of its own
      const std::size_t r = br.reconvergence_block, ip = br.ipdom_block;
      auto sync_block_into_r = [&] {
        if (cfg.blocks[ip].is_virtual_exit) return false;
        bool sync = block_has(ip, [&](std::size_t k) {
          return cfg.control_of[k] == ControlKind::pop_sync || on_barrier(k, ControlKind::barrier_sync, br.barrier);
        });
        auto succ = cfg.successor_blocks(ip);
        return sync && !succ.empty() && std::all_of(succ.begin(), succ.end(), [&](std::size_t s) { return s == r; });
      };
      if (r == ip || sync_block_into_r()) br.placement = ReconvergencePlacement::at_ipdom;
      else if (pdom.strictly_dominates(r, ip)) br.placement = ReconvergencePlacement::deferred;
      else br.placement = ReconvergencePlacement::other;
    }

    if (br.divergent) {
      ++report.divergent_branches;
      ++report.divergent_by_mechanism[std::string(mechanism_name(br.mechanism))];
      if (br.placement == ReconvergencePlacement::deferred) ++report.deferred;
    } else {
      ++report.uniform_branches;
    }
    report.branches.push_back(std::move(br));
  }
  if (report.predicated_divergent > 0) report.divergent_by_mechanism["predication"] = report.predicated_divergent;

  // Loops.
  for (const auto& lb : loop_bodies) {
    const std::size_t header = lb.header;
    LoopDivergence loop;
    loop.header = header;
    loop.address = function.instructions[cfg.blocks[header].first].address;
    for (std::size_t b : lb.blocks) {
      ++loop.blocks;
      for (std::size_t e : cfg.blocks[b].successors)
        loop.exits += !std::binary_search(lb.blocks.begin(), lb.blocks.end(), cfg.edges[e].to);
      if (!cfg.blocks[b].is_virtual_exit)
        for (std::size_t k = cfg.blocks[b].first; k <= cfg.blocks[b].last; ++k)
          if (cfg.control_of[k] == ControlKind::barrier_break || cfg.control_of[k] == ControlKind::pop_break) ++loop.breaks;
    }
    for (std::size_t x : lb.exit_transfers) loop.divergent_exit = loop.divergent_exit || div_branch[x];
    report.loops.push_back(loop);
  }
  return report;
}

std::string divergence_text(const DivergenceReport& r) {
  std::string out = fmt::format("function {} (sm_{}):\n", r.function, r.arch);
  for (const auto& b : r.branches) {
    out += fmt::format("  B{} {:04x} {}: {} ({}) {}", b.block, b.address, b.text,
                       b.divergent ? "divergent" : "uniform", b.reason, mechanism_name(b.mechanism));
    if (b.barrier >= 0) out += fmt::format(" B{}", b.barrier);
    if (b.has_reconvergence)
      out += fmt::format(" reconverge=B{}@{:04x}", b.reconvergence_block, b.reconvergence_address);
    if (b.has_ipdom) out += fmt::format(" ipdom=B{}", b.ipdom_block);
    if (b.placement != ReconvergencePlacement::none) out += fmt::format(" {}", placement_name(b.placement));
    out += "\n";
  }
  for (const auto& l : r.loops)
    out += fmt::format("  loop B{} {:04x}: {} blocks, {} exits, {} breaks{}\n", l.header, l.address, l.blocks, l.exits,
                       l.breaks, l.divergent_exit ? ", divergent exit" : "");
  out += fmt::format("  totals: {} divergent, {} uniform, {} deferred, predicated {} divergent/{} uniform",
                     r.divergent_branches, r.uniform_branches, r.deferred, r.predicated_divergent, r.predicated_uniform);
  for (const auto& [m, c] : r.divergent_by_mechanism) out += fmt::format(", {}={}", m, c);
  out += "\n";
  if (r.uniform_branch_instructions || !r.barrier_modifiers.empty() || r.partial_warpsyncs) {
    out += fmt::format("  extras: {} uniform-branch instructions, {} partial-mask WARPSYNC", r.uniform_branch_instructions,
                       r.partial_warpsyncs);
    for (const auto& [m, c] : r.barrier_modifiers) out += fmt::format(", {}={}", m, c);
    out += "\n";
  }
  for (const auto& p : r.problems) out += "  problem: " + p + "\n";
  return out;
}

std::string divergence_json(const std::vector<DivergenceReport>& reports, int indent) {
  return dump_json(divergence_json_value(reports), indent);
}

nlohmann::ordered_json divergence_json_value(const std::vector<DivergenceReport>& reports) {
  nlohmann::ordered_json all = nlohmann::ordered_json::array();
  for (const auto& r : reports) {
    nlohmann::ordered_json f;
    f["function"] = r.function;
    f["arch"] = r.arch;
    nlohmann::ordered_json branches = nlohmann::ordered_json::array();
    for (const auto& b : r.branches) {
      nlohmann::ordered_json j;
      j["block"] = b.block;
      j["address"] = b.address;
      j["instruction"] = b.text;
      j["divergent"] = b.divergent;
      j["reason"] = b.reason;
      j["mechanism"] = mechanism_name(b.mechanism);
      if (b.barrier >= 0) j["barrier"] = b.barrier;
      if (b.has_reconvergence) {
        j["reconvergence_block"] = b.reconvergence_block;
        j["reconvergence_address"] = b.reconvergence_address;
      }
      if (b.has_ipdom) j["ipdom_block"] = b.ipdom_block;
      j["placement"] = placement_name(b.placement);
      branches.push_back(j);
    }
    f["branches"] = branches;
    nlohmann::ordered_json loops = nlohmann::ordered_json::array();
    for (const auto& l : r.loops)
      loops.push_back({{"header", l.header}, {"address", l.address}, {"blocks", l.blocks}, {"exits", l.exits},
                       {"breaks", l.breaks}, {"divergent_exit", l.divergent_exit}});
    f["loops"] = loops;
    f["totals"] = {{"divergent", r.divergent_branches}, {"uniform", r.uniform_branches}, {"deferred", r.deferred},
                   {"predicated_divergent", r.predicated_divergent}, {"predicated_uniform", r.predicated_uniform},
                   {"by_mechanism", r.divergent_by_mechanism}};
    f["extras"] = {{"uniform_branch_instructions", r.uniform_branch_instructions},
                   {"partial_warpsyncs", r.partial_warpsyncs}, {"barrier_modifiers", r.barrier_modifiers}};
    f["problems"] = r.problems;
    all.push_back(f);
  }
  return all;
}

std::string divergence_dot(const DivergenceReport& r, const SassFunction& function) {
  const ControlFlowGraph cfg = build_cfg(function, r.arch);
  DotDecorations d;
  d.block_attributes.resize(cfg.block_count());
  d.block_notes.resize(cfg.block_count());
  std::vector<char> reconv(cfg.block_count(), 0);
  for (const auto& b : r.branches) {
    if (b.block >= cfg.block_count()) continue;
    std::string& note = d.block_notes[b.block];
    if (!note.empty()) note += "\n";
    note += fmt::format("{} {} {}", b.divergent ? "DIVERGENT" : "uniform", b.text, mechanism_name(b.mechanism));
    if (b.placement != ReconvergencePlacement::none) note += fmt::format(" ({})", placement_name(b.placement));
    if (b.divergent) d.block_attributes[b.block] = ", color=red, penwidth=2";
    else if (d.block_attributes[b.block].empty()) d.block_attributes[b.block] = ", color=darkgreen";
    if (b.divergent && b.has_reconvergence && b.reconvergence_block < cfg.block_count()) {
      reconv[b.reconvergence_block] = 1;
      d.extra_lines.push_back(fmt::format("b{} -> b{} [style=dotted, color=blue, constraint=false];", b.block,
                                          b.reconvergence_block));
    }
  }
  for (std::size_t b = 0; b < cfg.block_count(); ++b)
    if (reconv[b]) {
      d.block_attributes[b] += ", shape=doubleoctagon";
      d.block_notes[b] += d.block_notes[b].empty() ? "reconvergence point" : "\nreconvergence point";
    }
  return to_dot(cfg, function, d);
}

}  // namespace gpuport::sass
