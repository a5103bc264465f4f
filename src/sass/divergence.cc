#include "sass/divergence.h"

#include "common/json.h"

#include <algorithm>
#include <cstdio>
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
  const auto rd = reaching_definitions(cfg, du);
  const DominatorTree dom = compute_dominators(cfg);
  const DominatorTree pdom = compute_post_dominators(cfg);
  const std::size_t n = function.instructions.size();

  // Reaching definitions of every use, computed once.
  std::vector<std::vector<std::pair<RegisterRef, std::vector<std::size_t>>>> uses(n);
  for (std::size_t i = 0; i < n; ++i)
    for (const auto& r : du[i].uses) uses[i].push_back({r, rd.reaching(cfg, du, i, r)});
  std::vector<std::vector<std::size_t>> defs_of(n);
  for (std::size_t d = 0; d < rd.definitions.size(); ++d) defs_of[rd.definitions[d].instruction].push_back(d);

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
  std::vector<char> div_def(rd.definitions.size(), 0);
  std::vector<std::string> why_def(rd.definitions.size());
  std::vector<char> div_branch(n, 0);
  std::vector<std::string> why_branch(n);
  auto reg_divergent = [&](std::size_t i, RegisterRef r, std::string* why) {
    if (writes_uniform_file(r)) return false;
    for (const auto& [reg, reaching] : uses[i]) {
      if (reg != r) continue;
      if (reaching.empty()) {
        if (why) *why = register_name(r) + " live-in";
        return true;
      }
      for (std::size_t d : reaching)
        if (div_def[d]) {
          if (why) *why = why_def[d];
          return true;
        }
    }
    return false;
  };
  // Natural loops (by header), and per loop the transfers whose edges leave its body.
  struct LoopBody {
    std::size_t header = 0;
    std::vector<char> body;
    std::vector<std::size_t> exit_transfers;  // instructions
  };
  std::vector<LoopBody> loop_bodies;
  {
    std::map<std::size_t, std::vector<std::size_t>> by_header;
    for (std::size_t e : back_edges(cfg, dom)) by_header[cfg.edges[e].to].push_back(cfg.edges[e].from);
    for (const auto& [header, sources] : by_header) {
      LoopBody l;
      l.header = header;
      l.body.assign(cfg.block_count(), 0);
      l.body[header] = 1;
      std::vector<std::size_t> work;
      for (std::size_t s : sources)
        if (!l.body[s]) { l.body[s] = 1; work.push_back(s); }
      while (!work.empty()) {
        std::size_t b = work.back();
        work.pop_back();
        for (std::size_t p : cfg.predecessor_blocks(b))
          if (!l.body[p] && dom.contains(p)) { l.body[p] = 1; work.push_back(p); }
      }
      for (std::size_t b = 0; b < cfg.block_count(); ++b) {
        if (!l.body[b] || cfg.blocks[b].is_virtual_exit) continue;
        for (std::size_t e : cfg.blocks[b].successors)
          if (!l.body[cfg.edges[e].to] && cfg.edges[e].instruction < n && is_transfer(cfg.edges[e].instruction) &&
              std::find(l.exit_transfers.begin(), l.exit_transfers.end(), cfg.edges[e].instruction) == l.exit_transfers.end())
            l.exit_transfers.push_back(cfg.edges[e].instruction);
      }
      loop_bodies.push_back(std::move(l));
    }
  }
  // Temporal divergence: a value defined inside a loop that lanes leave at different iterations
  // (a divergent exit) differs between lanes after the loop, however uniform its inputs.
  auto temporal = [&](std::size_t use, const std::vector<std::size_t>& reaching) -> std::string {
    const std::size_t ub = cfg.block_of[use];
    for (std::size_t d : reaching) {
      const std::size_t db = cfg.block_of[rd.definitions[d].instruction];
      for (const auto& l : loop_bodies) {
        if (!l.body[db] || l.body[ub]) continue;
        for (std::size_t x : l.exit_transfers)
          if (div_branch[x])
            return fmt::format("value of the loop at {:04x}, left at different iterations (divergent exit at {:04x})",
                               function.instructions[cfg.blocks[l.header].first].address,
                               function.instructions[x].address);
      }
    }
    return {};
  };
  // Whether block d lies strictly between divergent branch block b and b's ipdom.
  auto in_region = [&](std::size_t b, std::size_t d) {
    auto ip = pdom.immediate(b);
    if (!ip || d == b || d == *ip) return false;
    return dom.dominates(b, d) && pdom.strictly_dominates(*ip, d);
  };
  bool changed = true;
  while (changed) {
    changed = false;
    for (std::size_t i = 0; i < n; ++i) {
      const auto& in = function.instructions[i];
      // Branch condition.
      if (is_transfer(i) && decides(i) && !div_branch[i]) {
        bool convergence_test = in.has_modifier("DIV") || in.has_modifier("CONV");
        if (!convergence_test)
          for (const auto& r : condition_regs(i)) {
            std::string why;
            bool divergent = reg_divergent(i, r, &why);
            if (!divergent)
              for (const auto& [reg, reaching] : uses[i])
                if (reg == r && !(why = temporal(i, reaching)).empty()) divergent = true;
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
      for (std::size_t d : defs_of[i]) all = all && (div_def[d] || writes_uniform_file(rd.definitions[d].reg));
      if (all) continue;
      std::string why = divergence_source(in);
      if (why.empty())
        for (const auto& [reg, reaching] : uses[i]) {
          if (reg_divergent(i, reg, &why)) break;
          // Sync dependence: several definitions meet here, one made under a divergent branch.
          if (reaching.size() > 1)
            for (std::size_t d : reaching) {
              std::size_t db = cfg.block_of[rd.definitions[d].instruction];
              for (std::size_t j = 0; j < n && why.empty(); ++j)
                if (div_branch[j] && in_region(cfg.block_of[j], db) && !in_region(cfg.block_of[j], cfg.block_of[i]))
                  why = "merge after divergent branch at " +
                        fmt::format("{:04x}", function.instructions[j].address);
              if (!why.empty()) break;
            }
          if (!why.empty()) break;
          if (!(why = temporal(i, reaching)).empty()) break;
        }
      if (why.empty()) continue;
      for (std::size_t d : defs_of[i])
        if (!div_def[d] && !writes_uniform_file(rd.definitions[d].reg)) {
          div_def[d] = 1;
          why_def[d] = why;
          changed = true;
        }
    }
  }

  // Dominator-tree depth, for picking the innermost marker.
  std::vector<std::size_t> depth(cfg.block_count(), 0);
  for (std::size_t b = 0; b < cfg.block_count(); ++b) {
    std::size_t d = 0, x = b;
    while (auto p = dom.immediate(x)) { x = *p; ++d; }
    depth[b] = d;
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
  auto pair_marker = [&](std::size_t i, int barrier, ControlKind kind) -> const ReconvergenceMarker* {
    const ReconvergenceMarker* best = nullptr;
    std::size_t b = cfg.block_of[i];
    for (const auto& m : cfg.reconvergence) {
      if (!m.resolved) continue;
      if (barrier >= 0 && m.barrier != barrier) continue;
      if (kind != ControlKind::none && m.kind != kind) continue;
      std::size_t mb = cfg.block_of[m.instruction];
      if (!dom.dominates(mb, b) || (mb == b && m.instruction > i)) continue;
      // A branch pairs with a BSSY whose target post-dominates it, or whose region it is in: from
      // the branch, the barrier's BSYNC is reachable before the BSSY runs again (a `continue`
      // inside a loop whose `break` paths leave the region by BREAK first).
      if (barrier < 0 && kind == ControlKind::none && !pdom.strictly_dominates(m.target_block, b) &&
          !(m.kind == ControlKind::barrier_set && in_barrier_region(m, i)))
        continue;
      if (best == nullptr || depth[mb] > depth[cfg.block_of[best->instruction]] ||
          (mb == cfg.block_of[best->instruction] && m.instruction > best->instruction))
        best = &m;
    }
    return best;
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
    const std::vector<char>& body = lb.body;
    LoopDivergence loop;
    loop.header = header;
    loop.address = function.instructions[cfg.blocks[header].first].address;
    for (std::size_t b = 0; b < cfg.block_count(); ++b) {
      if (!body[b]) continue;
      ++loop.blocks;
      for (std::size_t e : cfg.blocks[b].successors) loop.exits += !body[cfg.edges[e].to];
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
