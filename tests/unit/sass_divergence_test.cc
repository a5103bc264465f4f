// The divergence analysis over the committed listings: expectations checked by hand against the
// listings (tests/sass/listings/<arch>/<kernel>.sass) and the kernels they come from.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "sass/cfg.h"
#include "sass/cubin.h"
#include "sass/divergence.h"
#include "sass/indirect_branches.h"
#include "sass/parser.h"
#include "sass_listing_util.h"

namespace gpuport::sass {
namespace {

using testing::listings_root;
using testing::read_text;

SassProgram load(const std::string& arch, const std::string& kernel) {
  auto result = parse_sass(read_text(listings_root() / arch / (kernel + ".sass")));
  if (result.programs.empty()) return {};
  return result.programs[0];
}

DivergenceReport analyze(const std::string& arch, const std::string& kernel) {
  auto program = load(arch, kernel);
  EXPECT_FALSE(program.functions.empty()) << arch << "/" << kernel;
  if (program.functions.empty()) return {};
  return analyze_divergence(program.functions[0], parse_arch(arch));
}

const BranchDivergence* at(const DivergenceReport& r, std::uint64_t address) {
  for (const auto& b : r.branches)
    if (b.address == address) return &b;
  ADD_FAILURE() << "no branch at " << std::hex << address << " in " << r.function;
  return nullptr;
}

std::size_t count(const DivergenceReport& r, DivergenceMechanism m, bool divergent = true) {
  std::size_t n = 0;
  for (const auto& b : r.branches) n += b.mechanism == m && b.divergent == divergent;
  return n;
}

// Pattern 1: if/else on Pascal, SSY .L_x_0 ... SYNC; the SSY target is the branch's ipdom.
TEST(SassDivergence, IfElsePascalSsySyncAtIpdom) {
  auto r = analyze("sm_61", "if_else");
  auto* b = at(r, 0x118);
  ASSERT_NE(b, nullptr);
  EXPECT_TRUE(b->divergent);
  EXPECT_EQ(b->mechanism, DivergenceMechanism::ssy_sync);
  EXPECT_TRUE(b->has_reconvergence);
  EXPECT_EQ(b->reconvergence_address, 0x170u);
  EXPECT_EQ(b->placement, ReconvergencePlacement::at_ipdom);
  EXPECT_EQ(b->reconvergence_block, b->ipdom_block);
}

// Pattern 2: if/else on Ampere: BSSY B0, `(.L_x_0) at 0120, branch at 0140, BSYNC B0 at 01c0
// (the ipdom block) falling into .L_x_0 at 01d0: one reconvergence point, at the ipdom.
TEST(SassDivergence, IfElseAmpereBssyBsyncAtIpdom) {
  auto r = analyze("sm_80", "if_else");
  auto* b = at(r, 0x140);
  ASSERT_NE(b, nullptr);
  EXPECT_TRUE(b->divergent);
  EXPECT_EQ(b->reason, "P0 depends on LDG");  // the condition tests a loaded value
  EXPECT_EQ(b->mechanism, DivergenceMechanism::bssy_bsync);
  EXPECT_EQ(b->barrier, 0);
  EXPECT_EQ(b->reconvergence_address, 0x1d0u);
  EXPECT_EQ(b->placement, ReconvergencePlacement::at_ipdom);
  EXPECT_NE(b->reconvergence_block, b->ipdom_block);  // the BSYNC block, merged with the target
  // The bounds check `if (i >= n) return` is a guarded EXIT depending on threadIdx.
  auto* e = at(r, 0x50);
  ASSERT_NE(e, nullptr);
  EXPECT_TRUE(e->divergent);
  EXPECT_EQ(e->reason, "P0 depends on SR_TID.X");
  EXPECT_EQ(e->mechanism, DivergenceMechanism::exit);
  EXPECT_GT(r.predicated_divergent, 0u);  // pattern 3: predication (@!P0 FADD/FMUL/STG)
}

// Pattern 4: a k-way switch: a chain of compares on the loaded value, all under BSSY B0 and
// reconverging at one point (.L_x at 1670); one inner branch reconverges beyond its ipdom.
TEST(SassDivergence, SwitchKWay) {
  auto r = analyze("sm_80", "switch_kway");
  std::size_t chain = 0;
  for (const auto& b : r.branches)
    if (b.divergent && b.mechanism == DivergenceMechanism::bssy_bsync && b.reconvergence_address == 0x1670) ++chain;
  EXPECT_GE(chain, 4u);
  // Pattern 5: deferred reconvergence.
  auto* d = at(r, 0xcd0);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->placement, ReconvergencePlacement::deferred);
  EXPECT_EQ(r.deferred, 1u);
  // Pattern 6: a uniform loop branch: the counter R13 starts at a constant and is compared to 6.
  auto* u = at(r, 0x430);
  ASSERT_NE(u, nullptr);
  EXPECT_FALSE(u->divergent);
  EXPECT_EQ(u->mechanism, DivergenceMechanism::uniform_branch);
}

// Pattern 7: nested branches share the outer barrier's reconvergence point.
TEST(SassDivergence, NestedBranches) {
  auto r = analyze("sm_80", "nested_branches");
  EXPECT_EQ(count(r, DivergenceMechanism::bssy_bsync), 3u);
  for (const auto& b : r.branches)
    if (b.mechanism == DivergenceMechanism::bssy_bsync) {
      EXPECT_EQ(b.reconvergence_address, 0x4c0u);
      EXPECT_EQ(b.placement, ReconvergencePlacement::at_ipdom);
    }
  EXPECT_GT(r.predicated_divergent, 0u);
}

// Pattern 8: a loop with break/continue: Volta+ BREAK B1 then the branch out of the loop.
TEST(SassDivergence, LoopBreakContinueAmpere) {
  auto r = analyze("sm_80", "loop_break_continue");
  auto* brk = at(r, 0x310);
  ASSERT_NE(brk, nullptr);
  EXPECT_EQ(brk->mechanism, DivergenceMechanism::break_exit);
  EXPECT_EQ(brk->barrier, 1);
  auto* out = at(r, 0x320);
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(out->mechanism, DivergenceMechanism::break_exit);
  EXPECT_EQ(out->barrier, 0);
  // The `continue` (0x2f0) is inside the loop body's BSSY B1 region even though the `break`
  // lanes leave that region by BREAK B1: it pairs with B1 (whose target then does not
  // post-dominate it), as Pascal's continue pairs with its SSY, not with the outer B0.
  auto* cont = at(r, 0x2f0);
  ASSERT_NE(cont, nullptr);
  EXPECT_EQ(cont->mechanism, DivergenceMechanism::bssy_bsync);
  EXPECT_EQ(cont->barrier, 1);
  EXPECT_EQ(cont->reconvergence_address, 0x350u);
  EXPECT_EQ(cont->placement, ReconvergencePlacement::other);  // not_postdominating
  ASSERT_EQ(r.loops.size(), 1u);
  EXPECT_EQ(r.loops[0].breaks, 1u);
  EXPECT_TRUE(r.loops[0].divergent_exit);
  EXPECT_EQ(r.divergent_by_mechanism.at("break"), 2u);
}

// Pattern 9: the same loop on Pascal: PBK/BRK and SSY/SYNC.
TEST(SassDivergence, LoopBreakContinuePascal) {
  auto r = analyze("sm_61", "loop_break_continue");
  auto* brk = at(r, 0xb8);
  ASSERT_NE(brk, nullptr);
  EXPECT_EQ(brk->mechanism, DivergenceMechanism::break_exit);
  EXPECT_TRUE(brk->has_reconvergence);
  auto* sync = at(r, 0x308);  // @!P0 SYNC pops the SSY, not the PBK
  ASSERT_NE(sync, nullptr);
  EXPECT_EQ(sync->mechanism, DivergenceMechanism::ssy_sync);
  ASSERT_EQ(r.loops.size(), 1u);
  EXPECT_EQ(r.loops[0].breaks, 1u);  // 0318; the BRK at 0370 follows the loop
}

// Pattern 10: early return: the guarded EXITs need no reconvergence.
TEST(SassDivergence, EarlyReturn) {
  auto r = analyze("sm_80", "early_return");
  auto* e = at(r, 0x110);
  ASSERT_NE(e, nullptr);
  EXPECT_TRUE(e->divergent);
  EXPECT_EQ(e->mechanism, DivergenceMechanism::exit);
  EXPECT_EQ(e->placement, ReconvergencePlacement::none);
  EXPECT_EQ(at(r, 0x80)->mechanism, DivergenceMechanism::bssy_bsync);
}

// Pattern 11: a uniform branch on Blackwell: BRA.U UP0 (UISETP on a uniform counter).
TEST(SassDivergence, UniformBranchBlackwell) {
  auto r = analyze("sm_100", "switch_kway");
  auto* u = at(r, 0x400);
  ASSERT_NE(u, nullptr);
  EXPECT_FALSE(u->divergent);
  EXPECT_EQ(u->mechanism, DivergenceMechanism::uniform_branch);
  EXPECT_EQ(u->reason, "uniform predicate");
  EXPECT_EQ(r.uniform_branch_instructions, 2u);
  EXPECT_EQ(r.barrier_modifiers.at("BSSY.RECONVERGENT"), 5u);  // Blackwell extras
  EXPECT_EQ(r.barrier_modifiers.at("BSYNC.RECONVERGENT"), 5u);
}

// Pattern 12: __syncwarp with a partial mask (WARPSYNC R5) and BRA.CONV convergence tests.
TEST(SassDivergence, SyncwarpPartialMask) {
  auto r = analyze("sm_80", "syncwarp");
  EXPECT_GE(r.partial_warpsyncs, 1u);
  auto* conv = at(r, 0x100);
  ASSERT_NE(conv, nullptr);
  EXPECT_FALSE(conv->divergent);
  EXPECT_EQ(conv->reason, "warp-wide convergence test");
  EXPECT_EQ(count(r, DivergenceMechanism::bssy_bsync), 1u);
}

// Pattern 13: WARPSYNC.COLLECTIVE (tiled partitions on Blackwell) with a lane-dependent mask.
TEST(SassDivergence, WarpsyncCollective) {
  auto r = analyze("sm_100", "tiled_partition");
  EXPECT_EQ(count(r, DivergenceMechanism::warpsync), 3u);
  for (const auto& b : r.branches)
    if (b.mechanism == DivergenceMechanism::warpsync) {
      EXPECT_NE(b.reason.find("SR_LANEID"), std::string::npos);
    }
}

// Pattern 14: ballot and shuffle in divergent code: BRA.DIV tests, SSY/SYNC on Pascal.
TEST(SassDivergence, BallotAndShuffle) {
  auto r80 = analyze("sm_80", "ballot_divergent");
  EXPECT_EQ(count(r80, DivergenceMechanism::bssy_bsync), 1u);
  EXPECT_EQ(at(r80, 0xd0)->reason, "warp-wide convergence test");
  auto r61 = analyze("sm_61", "ballot_divergent");
  EXPECT_EQ(count(r61, DivergenceMechanism::ssy_sync), 1u);
  auto s61 = analyze("sm_61", "shuffle_divergent");
  EXPECT_EQ(count(s61, DivergenceMechanism::ssy_sync), 1u);
  auto s80 = analyze("sm_80", "shuffle_divergent");
  EXPECT_EQ(count(s80, DivergenceMechanism::bssy_bsync), 1u);
  EXPECT_EQ(count(s80, DivergenceMechanism::other, false), 3u);  // BRA.CONV/BRA.DIV
}

// Pattern 15: a divergent while loop: the loop exit is divergent.
TEST(SassDivergence, WhileDivergent) {
  auto r = analyze("sm_80", "while_divergent");
  ASSERT_EQ(r.loops.size(), 1u);
  EXPECT_TRUE(r.loops[0].divergent_exit);
}

TEST(SassDivergence, JsonAndDot) {
  auto program = load("sm_80", "early_return");
  ASSERT_FALSE(program.functions.empty());
  auto r = analyze_divergence(program.functions[0], 80);
  auto j = nlohmann::json::parse(divergence_json({r}));
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["branches"][0]["mechanism"], "bssy_bsync");
  EXPECT_EQ(j[0]["totals"]["divergent"], 3);
  auto dot = divergence_dot(r, program.functions[0]);
  EXPECT_NE(dot.find("doubleoctagon"), std::string::npos);
  EXPECT_NE(dot.find("color=red"), std::string::npos);
  EXPECT_NE(divergence_text(r).find("totals: 3 divergent"), std::string::npos);
}

// Every listing: no crash, every conditional transfer classified, divergent ones under a marker
// get a reconvergence point.
TEST(SassDivergence, AllListingsSanity) {
  std::size_t functions = 0, branches = 0;
  for (const auto& path : testing::all_listings()) {
    auto parsed = parse_sass(read_text(path));
    for (const auto& program : parsed.programs)
      for (const auto& f : program.functions) {
        ++functions;
        auto r = analyze_divergence(f, program.arch);
        EXPECT_EQ(r.divergent_branches + r.uniform_branches, r.branches.size()) << path;
        for (const auto& b : r.branches) {
          ++branches;
          EXPECT_FALSE(b.reason.empty()) << path << " " << b.address;
          if (b.divergent && (b.mechanism == DivergenceMechanism::bssy_bsync ||
                              b.mechanism == DivergenceMechanism::ssy_sync)) {
            EXPECT_TRUE(b.has_reconvergence) << path << " " << b.address;
          }
        }
        EXPECT_FALSE(divergence_dot(r, f).empty());
      }
  }
  EXPECT_GT(functions, 100u);
  EXPECT_GT(branches, 300u);
}


// Pattern 16: a condition on blockIdx and a parameter only. The sm_80 if_else bounds check
// `i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return` becomes uniform when the
// threadIdx read is replaced by SR_CTAID.Y (text edit of the committed listing).
TEST(SassDivergence, BlockIdxConditionIsUniform) {
  std::string text = read_text(listings_root() / "sm_80" / "if_else.sass");
  auto pos = text.find("S2R R3, SR_TID.X");
  ASSERT_NE(pos, std::string::npos);
  text.replace(pos, 16, "S2R R3, SR_CTAID.Y");
  auto parsed = parse_sass(text);
  ASSERT_FALSE(parsed.programs.empty());
  auto r = analyze_divergence(parsed.programs[0].functions[0], 80);
  auto* e = at(r, 0x50);
  ASSERT_NE(e, nullptr);
  EXPECT_FALSE(e->divergent);
  EXPECT_EQ(e->mechanism, DivergenceMechanism::uniform_branch);
  EXPECT_EQ(e->reason, "condition computed from uniform values");
  EXPECT_TRUE(at(r, 0x140)->divergent);  // still depends on the loaded value
}


// `@P0 CALL.REL.NOINC `(.L_x_1)` to a label of the same function, then the loop's back edge:
// nvcc's loop exit (sm_80 attention_small). It is a jump, not a call that returns: the loop has
// an exit and its blocks have post-dominators.
TEST(SassDivergence, CallNoincToALocalLabelIsAJump) {
  const std::string text =
      "\t.section\t.text.k,\"ax\",@progbits\n"
      "k:\n"
      ".text.k:\n"
      "        /*0000*/                   S2R R0, SR_TID.X ;\n"
      ".L_x_0:\n"
      "        /*0010*/                   IADD3 R0, R0, 0x20, RZ ;\n"
      "        /*0020*/                   ISETP.GE.AND P0, PT, R0, 0x100, PT ;\n"
      "        /*0030*/               @P0 CALL.REL.NOINC `(.L_x_1) ;\n"
      "        /*0040*/                   BRA `(.L_x_0) ;\n"
      ".L_x_1:\n"
      "        /*0050*/                   EXIT ;\n";
  auto parsed = parse_sass(text);
  ASSERT_EQ(parsed.programs.size(), 1u);
  ASSERT_EQ(parsed.programs[0].functions.size(), 1u);
  const auto& f = parsed.programs[0].functions[0];
  auto cfg = build_cfg(f, 80);
  EXPECT_TRUE(cfg.problems.empty());
  EXPECT_EQ(cfg.control_of[3], ControlKind::branch);
  auto r = analyze_divergence(f, 80);
  ASSERT_EQ(r.loops.size(), 1u);
  EXPECT_EQ(r.loops[0].exits, 1u);
  auto* exit = at(r, 0x30);
  ASSERT_NE(exit, nullptr);
  EXPECT_TRUE(exit->divergent);  // R0 starts at the thread index
  EXPECT_TRUE(exit->has_ipdom);
  EXPECT_EQ(exit->mechanism, DivergenceMechanism::unmarked);
}

// Temporal divergence: the counter R1 is uniform inside the loop (0, then +1 per trip), but lanes
// leave the loop at different trips (the exit compares it with the thread index), so after the
// loop R1 differs between lanes and a branch on it is divergent.
TEST(SassDivergence, ValueLeavingALoopWithADivergentExitIsDivergent) {
  const std::string text =
      "\t.section\t.text.k,\"ax\",@progbits\n"
      "k:\n"
      ".text.k:\n"
      "        /*0000*/                   S2R R0, SR_TID.X ;\n"
      "        /*0010*/                   MOV R1, RZ ;\n"
      ".L_x_0:\n"
      "        /*0020*/                   IADD3 R1, R1, 0x1, RZ ;\n"
      "        /*0030*/                   ISETP.GE.AND P0, PT, R1, R0, PT ;\n"
      "        /*0040*/              @!P0 BRA `(.L_x_0) ;\n"
      "        /*0050*/                   ISETP.GT.AND P1, PT, R1, 0x8, PT ;\n"
      "        /*0060*/               @P1 BRA `(.L_x_1) ;\n"
      "        /*0070*/                   MOV R2, 0x1 ;\n"
      ".L_x_1:\n"
      "        /*0080*/                   EXIT ;\n";
  auto parsed = parse_sass(text);
  ASSERT_EQ(parsed.programs.size(), 1u);
  auto r = analyze_divergence(parsed.programs[0].functions[0], 80);
  auto* exit = at(r, 0x40);
  ASSERT_NE(exit, nullptr);
  EXPECT_TRUE(exit->divergent);  // R1 against the thread index
  auto* after = at(r, 0x60);
  ASSERT_NE(after, nullptr);
  EXPECT_TRUE(after->divergent);
  EXPECT_NE(after->reason.find("left at different iterations (divergent exit at 0040)"), std::string::npos)
      << after->reason;
  ASSERT_EQ(r.loops.size(), 1u);
  EXPECT_TRUE(r.loops[0].divergent_exit);
}

// Pattern: a dense switch compiled to a jump table (tests/sass/kernels/switch_jumptable.cu):
// LDC from c[0x2] + BRX. nvdisasm 11.8 names only the section as the BRX's targets; the cubin's
// .nv.constant2 table and EIATTR_INDIRECT_BRANCH_TARGETS give them.
TEST(SassIndirectBranches, JumpTableTargetsComeFromTheCubin) {
  for (const std::string arch : {"sm_61", "sm_70", "sm_80", "sm_90"}) {
    SCOPED_TRACE(arch);
    auto program = load(arch, "switch_jumptable");
    ASSERT_EQ(program.functions.size(), 1u);
    // The targets nvdisasm 11.8 named in this listing (BRANCH_TARGETS labels), by address.
    // sm_90's names only the function's section: then the CFG without the cubin says so.
    std::map<std::uint64_t, std::set<std::uint64_t>> named;
    bool section_only = false;
    for (const auto& in : program.functions[0].instructions) {
      if (in.opcode != "BRX") continue;
      for (const auto& name : branch_targets(in.annotation)) {
        section_only = section_only || name.starts_with(".text.");
        for (const auto& l : program.functions[0].labels)
          if (l.name == name) named[in.address].insert(l.address);
      }
    }
    if (section_only) {
      auto bare = build_cfg(program.functions[0], parse_arch(arch));
      ASSERT_FALSE(bare.problems.empty());
      EXPECT_NE(bare.problems[0].find("indirect targets not named"), std::string::npos) << bare.problems[0];
    }
    const std::string bytes = read_text(listings_root() / arch / "switch_jumptable.cubin");
    auto cubin = read_cubin(bytes);
    ASSERT_TRUE(cubin.ok());
    EXPECT_TRUE(resolve_indirect_branches(program, *cubin.cubin, bytes).empty());
    const SassFunction& f = program.functions[0];
    std::size_t brx = 0;
    for (const auto& in : f.instructions) brx += in.opcode == "BRX";
    ASSERT_EQ(f.indirect_targets.size(), brx);
    ASSERT_GE(brx, 1u);
    for (const auto& [at, targets] : f.indirect_targets) {
      EXPECT_GE(targets.size(), 2u);
      for (std::uint64_t t : targets) EXPECT_NE(f.find_instruction(t), SassFunction::npos) << std::hex << t;
      // The jump table and nvdisasm agree on the targets.
      if (!section_only) {
        EXPECT_EQ(std::set<std::uint64_t>(targets.begin(), targets.end()), named[at]) << std::hex << at;
      }
    }
    // With it: no CFG problem, and every block is reachable from the entry but the `BRA self`
    // padding after the last EXIT.
    auto cfg = build_cfg(f, parse_arch(arch));
    EXPECT_TRUE(cfg.problems.empty()) << cfg.problems.front();
    std::vector<char> seen(cfg.block_count(), 0);
    std::vector<std::size_t> work{cfg.entry};
    seen[cfg.entry] = 1;
    while (!work.empty()) {
      std::size_t b = work.back();
      work.pop_back();
      for (std::size_t s : cfg.successor_blocks(b))
        if (!seen[s]) { seen[s] = 1; work.push_back(s); }
    }
    for (const auto& b : cfg.blocks) {
      if (b.is_virtual_exit || (f.instructions[b.first].opcode == "BRA" && cfg.successor_blocks(b.id) ==
                                                                                 std::vector<std::size_t>{b.id}))
        continue;
      bool padding = true;
      for (std::size_t k = b.first; k <= b.last; ++k) padding = padding && f.instructions[k].opcode == "NOP";
      if (!padding) {
        EXPECT_TRUE(seen[b.id]) << "block " << b.id << " unreachable";
      }
    }
    // The BRX is a divergent k-way branch (the selector is loaded per lane) that reconverges at
    // the switch's barrier: SSY/BRK region on Pascal, BSSY/BSYNC from Volta on.
    auto r = analyze_divergence(f, parse_arch(arch));
    for (const auto& b : r.branches) {
      if (b.text != "BRX") continue;
      EXPECT_TRUE(b.divergent);
      EXPECT_EQ(b.mechanism, arch == "sm_61" ? DivergenceMechanism::break_exit : DivergenceMechanism::bssy_bsync);
      EXPECT_EQ(b.placement, ReconvergencePlacement::at_ipdom);
    }
  }
}

// Divergent branches without a barrier of their own whose paths meet at an explicit
// __syncwarp(): the compiler relies on the WARPSYNC, and the report says so.
TEST(SassDivergence, FullWarpsyncAtTheIpdomIsTheReconvergence) {
  auto program = load("sm_90", "warp_scan");
  std::size_t found = 0;
  for (const auto& f : program.functions)
    for (const auto& b : analyze_divergence(f, 90).branches)
      if (b.mechanism == DivergenceMechanism::warpsync && b.divergent && !b.has_marker &&
          b.text.find("WARPSYNC") == std::string::npos) {
        ++found;
        EXPECT_TRUE(b.has_reconvergence);
        EXPECT_EQ(b.reconvergence_block, b.ipdom_block);
        EXPECT_EQ(b.placement, ReconvergencePlacement::at_ipdom);
        EXPECT_EQ(b.address, 0x430u);  // @P5 BRA over the tile's partial sum; 05c0 is WARPSYNC.ALL
      }
  EXPECT_EQ(found, 1u);
}


// A divergent branch that no BSSY, SSY or WARPSYNC covers is `unmarked`: nothing makes its paths
// wait for each other (sm_80 atomics_divergent: the loop over a loaded count leaves by EXIT).
TEST(SassDivergence, UnmarkedBranchHasNoReconvergencePoint) {
  auto r = analyze("sm_80", "atomics_divergent");
  auto* b = at(r, 0xd0);
  ASSERT_NE(b, nullptr);
  EXPECT_TRUE(b->divergent);
  EXPECT_EQ(b->mechanism, DivergenceMechanism::unmarked);
  EXPECT_FALSE(b->has_reconvergence);
  EXPECT_EQ(b->placement, ReconvergencePlacement::none);
  EXPECT_NE(b->reason.find("paths meet only at exit"), std::string::npos) << b->reason;
  EXPECT_EQ(r.divergent_by_mechanism.at("unmarked"), 6u);
  EXPECT_EQ(r.divergent_by_mechanism.at("exit"), 2u);
}

// A uniform loop counter with a divergent `if` inside the loop (bench/corpus needleman_wunsch's
// anti-diagonal loop, cut down): the counter's update after the if's reconvergence merges with
// its value from before the loop at the loop header, which is no merge after the divergent
// branch. The loop exit stays uniform (before: divergent, since the latch counted as part of the
// branch's region by way of the back edge; the real loop has a BAR.SYNC inside).
TEST(SassDivergence, ALoopCounterAfterADivergentIfStaysUniform) {
  const std::string text =
      "\t.section\t.text.k,\"ax\",@progbits\n"
      "k:\n"
      ".text.k:\n"
      "        /*0000*/                   S2R R2, SR_TID.X ;\n"
      "        /*0010*/                   IMAD.MOV.U32 R3, RZ, RZ, 0x2 ;\n"
      ".L_x_5:\n"
      "        /*0020*/                   ISETP.GT.U32.AND P1, PT, R2, R3, PT ;\n"
      "        /*0030*/               @P1 BRA `(.L_x_1) ;\n"
      "        /*0040*/                   STS [R2], R3 ;\n"
      ".L_x_1:\n"
      "        /*0050*/                   VIADD R11, R3, 0x1 ;\n"
      "        /*0060*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;\n"
      "        /*0070*/                   ISETP.NE.AND P0, PT, R11, 0x201, PT ;\n"
      "        /*0080*/              @!P0 BRA `(.L_x_2) ;\n"
      "        /*0090*/                   IMAD.MOV.U32 R3, RZ, RZ, R11 ;\n"
      "        /*00a0*/                   BRA `(.L_x_5) ;\n"
      ".L_x_2:\n"
      "        /*00b0*/                   EXIT ;\n";
  auto parsed = parse_sass(text);
  ASSERT_EQ(parsed.programs.size(), 1u);
  auto r = analyze_divergence(parsed.programs[0].functions[0], 80);
  ASSERT_NE(at(r, 0x30), nullptr);
  EXPECT_TRUE(at(r, 0x30)->divergent);
  ASSERT_NE(at(r, 0x80), nullptr);
  EXPECT_FALSE(at(r, 0x80)->divergent) << at(r, 0x80)->reason;
  ASSERT_EQ(r.loops.size(), 1u);
  EXPECT_FALSE(r.loops[0].divergent_exit);
}

// A value defined on one side of a divergent if and merged after it is divergent (sync
// dependence), with the branch named.
TEST(SassDivergence, AMergeAfterADivergentBranchIsDivergent) {
  const std::string text =
      "\t.section\t.text.k,\"ax\",@progbits\n"
      "k:\n"
      ".text.k:\n"
      "        /*0000*/                   S2R R2, SR_TID.X ;\n"
      "        /*0010*/                   IMAD.MOV.U32 R3, RZ, RZ, 0x2 ;\n"
      "        /*0020*/                   ISETP.GT.U32.AND P1, PT, R2, 0x10, PT ;\n"
      "        /*0030*/               @P1 BRA `(.L_x_1) ;\n"
      "        /*0040*/                   IMAD.MOV.U32 R3, RZ, RZ, 0x3 ;\n"
      ".L_x_1:\n"
      "        /*0050*/                   ISETP.NE.AND P0, PT, R3, 0x3, PT ;\n"
      "        /*0060*/               @!P0 BRA `(.L_x_2) ;\n"
      "        /*0070*/                   STG.E [R4.64], R3 ;\n"
      ".L_x_2:\n"
      "        /*0080*/                   EXIT ;\n";
  auto parsed = parse_sass(text);
  ASSERT_EQ(parsed.programs.size(), 1u);
  auto r = analyze_divergence(parsed.programs[0].functions[0], 80);
  ASSERT_NE(at(r, 0x60), nullptr);
  EXPECT_TRUE(at(r, 0x60)->divergent);
  EXPECT_TRUE(at(r, 0x60)->reason.starts_with("P0 depends on merge after divergent branch at 0030")) << at(r, 0x60)->reason;
}

}  // namespace
}  // namespace gpuport::sass
