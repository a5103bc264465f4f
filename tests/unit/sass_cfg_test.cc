#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "sass/cfg.h"
#include "sass/cubin.h"
#include "sass/defuse.h"
#include "sass/dominators.h"
#include "sass/indirect_branches.h"
#include "sass/parser.h"
#include "sass_listing_util.h"

namespace gpuport::sass {
namespace {

using testing::all_listings;
using testing::listings_root;
using testing::read_text;

SassProgram load(const std::string& arch, const std::string& kernel) {
  auto path = listings_root() / arch / (kernel + ".sass");
  auto result = parse_sass(read_text(path));
  if (result.programs.empty()) return {};
  return result.programs[0];
}

std::vector<char> reachable(const ControlFlowGraph& cfg, std::size_t from, bool backwards) {
  std::vector<char> seen(cfg.blocks.size(), 0);
  std::vector<std::size_t> work{from};
  seen[from] = 1;
  while (!work.empty()) {
    std::size_t b = work.back();
    work.pop_back();
    for (std::size_t n : backwards ? cfg.predecessor_blocks(b) : cfg.successor_blocks(b))
      if (!seen[n]) {
        seen[n] = 1;
        work.push_back(n);
      }
  }
  return seen;
}

// Builds a function from instruction lines; "NAME:" lines are labels.
SassFunction make_function(const std::vector<std::string>& lines) {
  SassFunction f;
  f.name = "test";
  std::uint64_t address = 0;
  for (const auto& line : lines) {
    if (line.back() == ':') {
      f.labels.push_back({line.substr(0, line.size() - 1), address, f.instructions.size()});
      continue;
    }
    SassInstruction inst;
    EXPECT_TRUE(parse_instruction_text(line, inst)) << line;
    inst.address = address;
    address += 16;
    f.instructions.push_back(std::move(inst));
  }
  return f;
}

TEST(SassOpcodeTable, BuiltinTableLoads) {
  const auto& table = builtin_opcode_table();
  for (const auto& e : table.errors) ADD_FAILURE() << e;
  ASSERT_GT(table.rows.size(), 50u);
  ASSERT_NE(table.find("BRA"), nullptr);
  EXPECT_EQ(table.find("BRA")->control, ControlKind::branch);
  EXPECT_EQ(table.find("SYNC")->control, ControlKind::pop_sync);
  EXPECT_EQ(table.find("ISETP")->defs, 2);
  EXPECT_EQ(table.find("IADD3")->def_rule, DefRule::carry);
  EXPECT_EQ(table.find("NOSUCH"), nullptr);
}

TEST(SassOpcodeTable, BadRowsAreReported) {
  auto table = parse_opcode_table("# c\nBRA\t0\t-\tbranch\nFOO\t9\t-\t-\nBAR\t1\tx\t-\nBAZ\t1\t-\tjump\nQ\t1\n");
  EXPECT_EQ(table.rows.size(), 1u);
  EXPECT_EQ(table.errors.size(), 4u);
}

// Every function of every committed listing: well-formed blocks and edges, no unresolved
// targets, entry dominates what it reaches, the exit post-dominates what reaches it, and every
// opcode has a def-use row.
// Reaching definitions the plain way, as sets per block (a forward may-analysis where a guarded
// definition does not kill): the oracle the value graph is checked against.
std::vector<std::vector<std::vector<std::size_t>>> reaching_by_sets(const ControlFlowGraph& cfg,
                                                                    const std::vector<InstructionDefUse>& du,
                                                                    const std::vector<Definition>& defs) {
  const std::size_t nb = cfg.blocks.size();
  auto transfer = [&](std::size_t b, std::set<std::size_t> live) {
    if (cfg.blocks[b].is_virtual_exit) return live;
    for (std::size_t d = 0; d < defs.size(); ++d) {
      const std::size_t i = defs[d].instruction;
      if (i < cfg.blocks[b].first || i > cfg.blocks[b].last) continue;
      if (!du[i].partial) std::erase_if(live, [&](std::size_t o) { return defs[o].reg == defs[d].reg; });
      live.insert(d);
    }
    return live;
  };
  std::vector<std::set<std::size_t>> in(nb), out(nb);
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t b = 0; b < nb; ++b) {
      std::set<std::size_t> merged;
      for (std::size_t p : cfg.predecessor_blocks(b)) merged.insert(out[p].begin(), out[p].end());
      auto next = transfer(b, merged);
      if (merged != in[b] || next != out[b]) changed = true;
      in[b] = std::move(merged);
      out[b] = std::move(next);
    }
  }
  // Per instruction, per use: the definitions of that register reaching it.
  std::vector<std::vector<std::vector<std::size_t>>> result(du.size());
  for (std::size_t i = 0; i < du.size(); ++i) {
    const std::size_t b = cfg.block_of[i];
    for (const auto& reg : du[i].uses) {
      std::set<std::size_t> live;
      for (std::size_t d : in[b])
        if (defs[d].reg == reg) live.insert(d);
      for (std::size_t d = 0; d < defs.size(); ++d) {
        const std::size_t k = defs[d].instruction;
        if (k < cfg.blocks[b].first || k >= i || defs[d].reg != reg) continue;
        if (!du[k].partial) live.clear();
        live.insert(d);
      }
      result[i].emplace_back(live.begin(), live.end());
    }
  }
  return result;
}

std::vector<std::vector<std::vector<std::size_t>>> all_reaching(const ValueGraph& values,
                                                                const std::vector<InstructionDefUse>& du) {
  std::vector<std::vector<std::vector<std::size_t>>> result(du.size());
  for (std::size_t i = 0; i < du.size(); ++i)
    for (std::uint32_t v : values.use_values[i]) result[i].push_back(values.reaching(v));
  return result;
}

TEST(SassCfg, EveryListingIsWellFormed) {
  auto listings = all_listings();
  if (listings.empty()) GTEST_SKIP() << "no committed listings under tests/sass/listings";
  std::set<std::string> unknown;
  std::size_t functions = 0;
  for (const auto& path : listings) {
    auto result = parse_sass(read_text(path));
    ASSERT_EQ(result.programs.size(), 1u) << path;
    // Jump tables come from the cubin beside the listing (nvdisasm 11.8 does not name them).
    auto cubin_path = std::filesystem::path(path).replace_extension(".cubin");
    if (std::filesystem::exists(cubin_path)) {
      std::string bytes = read_text(cubin_path);
      auto cubin = read_cubin(bytes, cubin_path.string());
      ASSERT_TRUE(cubin.ok()) << cubin_path;
      for (const auto& p : resolve_indirect_branches(result.programs[0], *cubin.cubin, bytes)) ADD_FAILURE() << p;
    }
    for (const auto& f : result.programs[0].functions) {
      SCOPED_TRACE(path.string() + " " + f.name);
      ++functions;
      auto cfg = build_cfg(f, result.programs[0].arch);
      for (const auto& p : cfg.problems) ADD_FAILURE() << p;
      const std::size_t n = f.instructions.size();
      ASSERT_EQ(cfg.block_of.size(), n);
      ASSERT_TRUE(cfg.blocks[cfg.exit].is_virtual_exit);
      EXPECT_EQ(cfg.exit, cfg.blocks.size() - 1);
      // Blocks tile the instructions in order.
      std::size_t next = 0;
      for (const auto& b : cfg.blocks) {
        if (b.is_virtual_exit) continue;
        EXPECT_EQ(b.first, next);
        EXPECT_LE(b.first, b.last);
        for (std::size_t i = b.first; i <= b.last; ++i) EXPECT_EQ(cfg.block_of[i], b.id);
        next = b.last + 1;
      }
      EXPECT_EQ(next, n);
      // Edges appear once in their source's successors and once in their target's predecessors.
      std::size_t succ = 0, pred = 0;
      for (const auto& b : cfg.blocks) {
        succ += b.successors.size();
        pred += b.predecessors.size();
        for (std::size_t e : b.successors) EXPECT_EQ(cfg.edges[e].from, b.id);
        for (std::size_t e : b.predecessors) EXPECT_EQ(cfg.edges[e].to, b.id);
      }
      EXPECT_EQ(succ, cfg.edges.size());
      EXPECT_EQ(pred, cfg.edges.size());
      EXPECT_TRUE(cfg.blocks[cfg.exit].successors.empty());
      for (const auto& e : cfg.edges) {
        EXPECT_EQ(e.instruction, cfg.blocks[e.from].last);
        EXPECT_EQ(e.kind == EdgeKind::exit, e.to == cfg.exit);
      }
      // Dominance.
      auto dom = compute_dominators(cfg);
      auto pdom = compute_post_dominators(cfg);
      auto forward = reachable(cfg, cfg.entry, false);
      auto to_exit = reachable(cfg, cfg.exit, true);
      EXPECT_TRUE(forward[cfg.exit]) << "the entry reaches no exit";
      for (std::size_t b = 0; b < cfg.blocks.size(); ++b) {
        EXPECT_EQ(dom.dominates(cfg.entry, b), static_cast<bool>(forward[b])) << "block " << b;
        EXPECT_EQ(pdom.dominates(cfg.exit, b), static_cast<bool>(to_exit[b])) << "block " << b;
        if (auto i = dom.immediate(b)) {
          EXPECT_TRUE(dom.strictly_dominates(*i, b));
          for (std::size_t p : cfg.predecessor_blocks(b))
            if (forward[p]) {
              EXPECT_TRUE(dom.dominates(*i, p));
            }
        }
        if (auto i = pdom.immediate(b)) {
          EXPECT_TRUE(pdom.strictly_dominates(*i, b));
          for (std::size_t s : cfg.successor_blocks(b))
            if (to_exit[s]) {
              EXPECT_TRUE(pdom.dominates(*i, s));
            }
        }
      }
      for (const auto& m : cfg.reconvergence) EXPECT_TRUE(m.resolved);
      // Def-use covers every opcode; zero registers never appear.
      for (std::size_t i = 0; i < n; ++i) {
        auto du = def_use(f.instructions[i]);
        if (!du.known_opcode && !f.instructions[i].undecoded) unknown.insert(f.instructions[i].opcode);
        for (const auto& r : du.defs) {
          EXPECT_FALSE(r.file == RegisterFile::r && r.index == 255);
          EXPECT_FALSE((r.file == RegisterFile::p || r.file == RegisterFile::up) && r.index == 7);
        }
      }
      const auto du = def_use(f);
      const auto values = build_value_graph(cfg, du);
      EXPECT_EQ(values.use_values.size(), n);
      EXPECT_EQ(reaching_by_sets(cfg, du, values.definitions), all_reaching(values, du))
          << "the value graph and set-based reaching definitions disagree in " << f.name;
      EXPECT_NE(to_dot(cfg, f).find("digraph"), std::string::npos);
    }
  }
  EXPECT_GT(functions, 100u);
  for (const auto& op : unknown) ADD_FAILURE() << "opcode without a row in data/sass/opcodes.tsv: " << op;
}

// The block of the first conditional BRA after instruction `from`.
std::size_t branch_block_after(const ControlFlowGraph& cfg, const SassFunction& f, std::size_t from) {
  for (std::size_t i = from; i < f.instructions.size(); ++i)
    if (f.instructions[i].opcode == "BRA" && is_conditional(f.instructions[i])) return cfg.block_of[i];
  ADD_FAILURE() << "no conditional BRA after " << from;
  return 0;
}

TEST(SassCfg, PascalIfElseReconvergesAtSsyTarget) {
  auto program = load("sm_61", "if_else");
  const SassFunction* f = program.find_function("if_else");
  if (f == nullptr) GTEST_SKIP() << "sm_61/if_else.sass missing";
  auto cfg = build_cfg(*f, 61);
  auto pdom = compute_post_dominators(cfg);
  ASSERT_EQ(cfg.reconvergence.size(), 1u);
  const auto& ssy = cfg.reconvergence[0];
  EXPECT_EQ(ssy.kind, ControlKind::push_sync);
  EXPECT_EQ(ssy.target_block, cfg.block_of_label(".L_x_0"));
  std::size_t branch = branch_block_after(cfg, *f, ssy.instruction);
  EXPECT_EQ(pdom.immediate(branch), ssy.target_block);
  std::size_t syncs = 0;
  for (const auto& e : cfg.edges)
    if (e.kind == EdgeKind::reconvergence) {
      EXPECT_EQ(e.to, ssy.target_block);
      ++syncs;
    }
  EXPECT_EQ(syncs, 2u);
  ASSERT_EQ(cfg.calls.size(), 1u);
  EXPECT_EQ(cfg.calls[0].callee, "$if_else$__cuda_sm20_sqrt_rn_f32_slowpath");
}

TEST(SassCfg, AmpereIfElseReconvergesAtBssyTarget) {
  auto program = load("sm_80", "if_else");
  const SassFunction* f = program.find_function("if_else");
  if (f == nullptr) GTEST_SKIP() << "sm_80/if_else.sass missing";
  auto cfg = build_cfg(*f, 80);
  auto pdom = compute_post_dominators(cfg);
  ASSERT_EQ(cfg.reconvergence.size(), 1u);
  const auto& bssy = cfg.reconvergence[0];
  EXPECT_EQ(bssy.kind, ControlKind::barrier_set);
  EXPECT_EQ(bssy.barrier, 0);
  // BSSY's target is the instruction after `BSYNC B0`: the branch's immediate post-dominator is
  // the BSYNC block, which falls straight into the target.
  std::size_t branch = branch_block_after(cfg, *f, bssy.instruction);
  auto ipdom = pdom.immediate(branch);
  ASSERT_TRUE(ipdom.has_value());
  const auto& bsync = f->instructions[cfg.blocks[*ipdom].first];
  EXPECT_EQ(bsync.opcode, "BSYNC");
  ASSERT_FALSE(bsync.operands.empty());
  EXPECT_EQ(bsync.operands[0].kind, OperandKind::barrier);
  EXPECT_EQ(bsync.operands[0].index, 0);
  EXPECT_EQ(cfg.successor_blocks(*ipdom), std::vector<std::size_t>{bssy.target_block});
  EXPECT_EQ(pdom.immediate(*ipdom), bssy.target_block);
}

TEST(SassCfg, LoopBreakContinueHasBackEdgeOnEveryArch) {
  for (const char* arch : {"sm_61", "sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120"}) {
    auto program = load(arch, "loop_break_continue");
    const SassFunction* f = program.find_function("loop_break_continue");
    if (f == nullptr) GTEST_SKIP() << arch << "/loop_break_continue.sass missing";
    auto cfg = build_cfg(*f);
    auto dom = compute_dominators(cfg);
    auto back = back_edges(cfg, dom);
    EXPECT_FALSE(back.empty()) << arch;
    for (std::size_t e : back) EXPECT_TRUE(cfg.is_backward(cfg.edges[e])) << arch;
  }
}

TEST(SassCfg, EarlyReturnHasTwoPathsToExit) {
  for (const char* arch : {"sm_61", "sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120"}) {
    auto program = load(arch, "early_return");
    const SassFunction* f = program.find_function("early_return");
    if (f == nullptr) GTEST_SKIP() << arch << "/early_return.sass missing";
    auto cfg = build_cfg(*f);
    std::set<std::size_t> exits;
    for (std::size_t p : cfg.predecessor_blocks(cfg.exit)) exits.insert(p);
    EXPECT_GE(exits.size(), 2u) << arch;
  }
}

// switch (sel & 7) with eight arms: some block's region (it dominates, its immediate
// post-dominator post-dominates) holds a tree of conditional branches reaching at least four
// distinct arm blocks.
TEST(SassCfg, SwitchHasKWayStructure) {
  for (const char* arch : {"sm_61", "sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120"}) {
    auto program = load(arch, "switch_kway");
    const SassFunction* f = program.find_function("switch_kway");
    if (f == nullptr) GTEST_SKIP() << arch << "/switch_kway.sass missing";
    auto cfg = build_cfg(*f);
    auto dom = compute_dominators(cfg);
    auto pdom = compute_post_dominators(cfg);
    std::size_t best = 0;
    for (std::size_t h = 0; h < cfg.exit; ++h) {
      auto join = pdom.immediate(h);
      if (!join || *join == cfg.exit) continue;
      std::set<std::size_t> arms;
      for (const auto& e : cfg.edges)
        if (e.kind == EdgeKind::branch_taken && dom.dominates(h, e.from) && e.to != *join &&
            pdom.dominates(*join, e.from) && is_conditional(f->instructions[e.instruction]))
          arms.insert(e.to);
      best = std::max(best, arms.size());
    }
    EXPECT_GE(best, 4u) << arch;
  }
}

TEST(SassCfg, PascalStackResolvesUnannotatedSync) {
  auto f = make_function({"SSY `(.L_join) ;", "@P0 BRA `(.L_else) ;", "MOV R0, 0x1 ;", "SYNC ;", ".L_else:",
                          "MOV R0, 0x2 ;", "SYNC ;", ".L_join:", "PBK `(.L_out) ;", ".L_loop:",
                          "@P1 BRK ;", "BRA `(.L_loop) ;", ".L_out:", "EXIT ;"});
  auto cfg = build_cfg(f, 61);
  for (const auto& p : cfg.problems) ADD_FAILURE() << p;
  auto join = cfg.block_of_label(".L_join");
  auto out = cfg.block_of_label(".L_out");
  ASSERT_TRUE(join && out);
  std::size_t to_join = 0, to_out = 0;
  for (const auto& e : cfg.edges) {
    if (e.kind != EdgeKind::reconvergence) continue;
    if (e.to == *join) ++to_join;
    if (e.to == *out) ++to_out;
  }
  EXPECT_EQ(to_join, 2u);
  EXPECT_EQ(to_out, 1u);
  auto pdom = compute_post_dominators(cfg);
  EXPECT_EQ(pdom.immediate(cfg.block_of[1]), *join);
}

TEST(SassCfg, UnmatchedSyncIsAProblem) {
  auto f = make_function({"SYNC ;", "EXIT ;"});
  auto cfg = build_cfg(f, 61);
  EXPECT_EQ(cfg.problems.size(), 1u);
}

TEST(SassCfg, ConditionalForms) {
  auto f = make_function({"BRA.DIV UR4, `(.L_a) ;", "BRA.U !UP0, `(.L_a) ;", "@P0 BRA P1, `(.L_a) ;",
                          "WARPSYNC.COLLECTIVE R3, `(.L_a) ;", "@P0 EXIT ;", "@!PT BRA `(.L_a) ;",
                          ".L_a:", "BRA `(.L_a) ;"});
  auto cfg = build_cfg(f, 100);
  for (const auto& p : cfg.problems) ADD_FAILURE() << p;
  for (std::size_t i = 0; i < 6; ++i) EXPECT_TRUE(is_conditional(f.instructions[i])) << i;
  EXPECT_FALSE(is_conditional(f.instructions[6]));
  // One block per instruction; the last loops forever and has no path to the exit.
  EXPECT_EQ(cfg.blocks.size(), 8u);
  auto pdom = compute_post_dominators(cfg);
  std::size_t loop = cfg.block_of[6];
  EXPECT_FALSE(pdom.contains(loop));
  EXPECT_FALSE(pdom.immediate(loop).has_value());
  EXPECT_FALSE(pdom.dominates(cfg.exit, loop));
  EXPECT_EQ(pdom.immediate(cfg.block_of[4]), cfg.exit);  // @P0 EXIT: one side exits
  auto dom = compute_dominators(cfg);
  EXPECT_EQ(back_edges(cfg, dom).size(), 1u);
}

TEST(SassCfg, UnreachableBlocksAreOutsideTheDominatorTree) {
  auto f = make_function({"EXIT ;", "MOV R0, 0x1 ;", "EXIT ;"});
  auto cfg = build_cfg(f);
  auto dom = compute_dominators(cfg);
  EXPECT_FALSE(dom.contains(1));
  EXPECT_FALSE(dom.dominates(0, 1));
  auto pdom = compute_post_dominators(cfg);
  EXPECT_TRUE(pdom.dominates(cfg.exit, 1));  // it reaches the exit, though nothing reaches it
}

TEST(SassCfg, DotNamesBlocksAndEdges) {
  auto f = make_function({"@P0 BRA `(.L_a) ;", "MOV R0, 0x1 ;", ".L_a:", "EXIT ;"});
  auto cfg = build_cfg(f);
  std::string dot = to_dot(cfg, f);
  EXPECT_NE(dot.find("digraph \"test\""), std::string::npos);
  EXPECT_NE(dot.find("[0000..0000]"), std::string::npos);
  EXPECT_NE(dot.find("@P0 BRA"), std::string::npos);
  EXPECT_NE(dot.find("b0 -> b2 [label=\"T\""), std::string::npos);
  EXPECT_NE(dot.find("b0 -> b1 [label=\"F\""), std::string::npos);
  EXPECT_NE(dot.find("b2 -> b3"), std::string::npos);
  EXPECT_EQ(dot, to_dot(build_cfg(f), f));
}

std::string names(const std::vector<RegisterRef>& regs) {
  std::string s;
  for (const auto& r : regs) s += (s.empty() ? "" : " ") + register_name(r);
  return s;
}

struct DefUseCase {
  const char* text;
  const char* defs;
  const char* uses;
};

TEST(SassDefUse, OperandRules) {
  const DefUseCase cases[] = {
      {"ISETP.GE.AND P0, PT, R2, c[0x0][0x170], PT ;", "P0", "R2"},
      {"@!P0 FADD R0, -R4, 1 ;", "R0", "R4 P0"},
      {"IADD3 R4, P0, P1, R2, c[0x0][0x160], RZ ;", "R4 P0 P1", "R2"},
      {"IADD3.X R5, R3, c[0x0][0x164], RZ, P0, !P1 ;", "R5", "R3 P0 P1"},
      {"LOP3.LUT P0, RZ, R4, 0x7fffffff, RZ, 0xc0, !PT ;", "P0", "R4"},
      {"STG.E.64 [R2.64], R4 ;", "", "R2 R3 R4 R5"},
      {"LDG.E.128 R4, desc[UR4][R2.64] ;", "R4 R5 R6 R7", "R2 R3 UR4"},
      {"IMAD.WIDE R2, R0, 0x4, R4 ;", "R2 R3", "R0 R4 R5"},
      {"DFMA R4, R2, R6, R8 ;", "R4 R5", "R2 R3 R6 R7 R8 R9"},
      {"DSETP.GT.AND P0, PT, R2, R4, PT ;", "P0", "R2 R3 R4 R5"},
      {"VOTE.ANY R0, PT, P1 ;", "R0", "P1"},
      {"ATOMG.E.ADD.STRONG.GPU PT, R0, [R2.64], R5 ;", "R0", "R2 R3 R5"},
      {"RED.E.ADD.STRONG.GPU [R2.64], R5 ;", "", "R2 R3 R5"},
      {"BRA.U !UP0, `(.L_x_1) ;", "", "UP0"},
      {"BSYNC B0 ;", "", ""},
      {"R2UR UR4, R2 ;", "UR4", "R2"},
      {"I2F.F64.S32 R4, R2 ;", "R4 R5", "R2"},
      {"F2I.F64.TRUNC R0, R2 ;", "R0", "R2 R3"},
      {"PLOP3.LUT P0, PT, P1, P2, PT, 0x80, 0x0 ;", "P0", "P1 P2"},
      {"LDC.64 R4, c[0x0][0x380] ;", "R4 R5", ""},
      {"ULDC.64 UR4, c[0x0][0x118] ;", "UR4 UR5", ""},
      {"RET.REL.NODEC R4 `(if_else) ;", "", "R4"},
      {"MOV R0, c[0x3][R1+0x10] ;", "R0", "R1"},
  };
  for (const auto& c : cases) {
    SassInstruction inst;
    ASSERT_TRUE(parse_instruction_text(c.text, inst)) << c.text;
    auto du = def_use(inst);
    EXPECT_TRUE(du.known_opcode) << c.text;
    EXPECT_EQ(names(du.defs), c.defs) << c.text;
    EXPECT_EQ(names(du.uses), c.uses) << c.text;
  }
  SassInstruction guarded;
  ASSERT_TRUE(parse_instruction_text("@P1 MOV R0, R2 ;", guarded));
  EXPECT_TRUE(def_use(guarded).partial);
}

TEST(SassDefUse, ReachingDefinitions) {
  auto f = make_function({"MOV R0, 0x1 ;", "@P0 BRA `(.L_a) ;", "MOV R0, 0x2 ;", "@P1 MOV R0, 0x3 ;",
                          ".L_a:", "STG.E [R2.64], R0 ;", "EXIT ;"});
  auto cfg = build_cfg(f);
  auto du = def_use(f);
  auto values = build_value_graph(cfg, du);
  auto defs = values.reaching(du, 4, {RegisterFile::r, 0});
  std::set<std::size_t> sites;
  for (std::size_t k : defs) sites.insert(values.definitions[k].instruction);
  // From the branch: the first MOV; through the fall-through: the second (the guarded third may
  // or may not have replaced it) and the third.
  EXPECT_EQ(sites, (std::set<std::size_t>{0, 2, 3}));
  // The guarded third MOV keeps the value before it: the second MOV's.
  std::size_t third = 0;
  while (values.definitions[third].instruction != 3) ++third;
  const auto& partial = values.values[values.definition_value[third]];
  ASSERT_EQ(partial.operands.size(), 1u);
  auto before_third = values.reaching(partial.operands[0]);
  ASSERT_EQ(before_third.size(), 1u);
  EXPECT_EQ(values.definitions[before_third[0]].instruction, 2u);
  // R2 is never written: its use reads the live-in value, which no definition reaches.
  EXPECT_TRUE(values.reaching(du, 4, {RegisterFile::r, 2}).empty());
}

TEST(SassDefUse, TheValueGraphStaysLinearOnALongBranchChain) {
  // Each block adds to R2 under a divergent skip: at block k, k definitions reach (sets would be
  // quadratic); the graph holds one merge per join block.
  std::vector<std::string> lines = {"S2R R0, SR_TID.X ;"};
  const int blocks = 2000;
  for (int b = 0; b < blocks; ++b) {
    lines.push_back("ISETP.GT.AND P0, PT, R0, 0x1, PT ;");
    lines.push_back("@P0 BRA `(.L_x_" + std::to_string(b) + ") ;");
    lines.push_back("IADD3 R2, R2, 0x1, RZ ;");
    lines.push_back(".L_x_" + std::to_string(b) + ":");
  }
  lines.push_back("EXIT ;");
  auto f = make_function(lines);
  auto cfg = build_cfg(f);
  auto du = def_use(f);
  auto values = build_value_graph(cfg, du);
  EXPECT_LT(values.values.size(), 6u * blocks + 16);
  const std::size_t last_add = 1 + 3 * (blocks - 1) + 2;
  EXPECT_EQ(values.reaching(du, last_add, {RegisterFile::r, 2}).size(), static_cast<std::size_t>(blocks - 1));
}

}  // namespace
}  // namespace gpuport::sass

namespace gpuport::sass {
namespace {

// nvdisasm 11.8 sometimes branches to a label it never defines; the CFG then takes the target
// from the encoding. Over every committed Volta+ listing: with all label definitions deleted,
// each function (without BRX/CALL, whose targets are named differently) gets the same control
// transfer edges (taken, not taken, reconvergence).
TEST(SassCfg, BranchTargetsFromTheEncodingMatchTheLabels) {
  std::size_t functions = 0, edges = 0;
  for (const auto& path : all_listings()) {
    const int arch = parse_arch(path.parent_path().filename().string());
    if (arch < 70) continue;
    const std::string text = read_text(path);
    std::string stripped;
    for (const auto& line : testing::split_lines(text))
      if (!(line.starts_with(".L_x_") && line.ends_with(":"))) stripped += line + "\n";
    auto with = parse_sass(text), without = parse_sass(stripped);
    ASSERT_EQ(with.programs.size(), 1u);
    ASSERT_EQ(without.programs.size(), 1u);
    ASSERT_EQ(with.programs[0].functions.size(), without.programs[0].functions.size()) << path;
    for (std::size_t k = 0; k < with.programs[0].functions.size(); ++k) {
      const auto& f = with.programs[0].functions[k];
      bool skip = false;
      for (const auto& in : f.instructions) skip = skip || in.opcode == "BRX" || in.opcode == "CALL";
      if (skip) continue;
      SCOPED_TRACE(path.string() + " " + f.name);
      auto a = build_cfg(f, arch), b = build_cfg(without.programs[0].functions[k], arch);
      EXPECT_TRUE(b.problems.empty()) << b.problems.front();
      auto edge_set = [](const ControlFlowGraph& g, const SassFunction& fn) {
        std::set<std::tuple<std::uint64_t, std::uint64_t, int>> out;
        for (const auto& e : g.edges) {
          // Fall-through edges between blocks split only at a (now deleted) label do not count.
          if (g.blocks[e.to].is_virtual_exit || e.kind == EdgeKind::fallthrough) continue;
          out.insert({fn.instructions[e.instruction].address, fn.instructions[g.blocks[e.to].first].address,
                      static_cast<int>(e.kind)});
        }
        return out;
      };
      auto ea = edge_set(a, f);
      EXPECT_EQ(ea, edge_set(b, without.programs[0].functions[k]));
      ++functions;
      edges += ea.size();
    }
  }
  EXPECT_GT(functions, 80u);
  EXPECT_GT(edges, 500u);
}

}  // namespace
}  // namespace gpuport::sass
