// The warp-level SASS semantics (semantics/sass_warp.cc) run natively for every lane of a simulated
// warp (target_native's SimulatedThread: lane, active lanes, the other lanes' values and votes),
// checked against hand-computed values of PTX's shfl.sync / vote / match / redux definitions; and
// the lifter's handling of the warp and special forms (what it lifts, what it refuses).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "lift/lower.h"
#include "lift/sass_lift.h"
#include "lift/semantics/printf_walk.h"
#include "lift/semantics/sass_warp.h"
#include "lift/semantics/target_native.h"
#include "sass/parser.h"

namespace {

using gpuport::lift::native::simulated_thread;

// A warp whose lane i holds values[i]; `active` lanes take part.
struct Warp {
  std::uint32_t values[32] = {};
  std::uint32_t active = 0xffffffffu;

  // Puts the simulated thread in lane `lane` of this warp (read_lane sees the other lanes' values,
  // ballot the other lanes' votes).
  void enter(std::uint32_t lane, std::uint32_t votes = 0) const {
    auto& t = simulated_thread();
    t = {};
    t.lane = lane;
    t.active = active;
    t.ballot_others = votes;
    for (int i = 0; i < 32; ++i) t.lane_values[i] = values[i];
  }
};

Warp counting_warp(std::uint32_t base) {
  Warp w;
  for (std::uint32_t i = 0; i < 32; ++i) w.values[i] = base + i;
  return w;
}

struct ShflResult {
  std::uint32_t value;
  bool in_range;
};
ShflResult shfl(const Warp& w, std::uint32_t lane, std::uint32_t b, std::uint32_t c, std::uint32_t mode) {
  w.enter(lane);
  bool in_range = false;
  const std::uint32_t v = gpuport_sass_shfl(w.values[lane], b, c, mode, &in_range);
  return {v, in_range};
}

TEST(LiftWarpSemantics, ShflDownFullWarp) {
  const Warp w = counting_warp(100);
  // __shfl_down_sync(m, v, 5): c = 0x1f (clamp 31, no segments).
  auto r = shfl(w, 3, 5, 0x1f, SASS_SHFL_DOWN);
  EXPECT_EQ(r.value, 108u);
  EXPECT_TRUE(r.in_range);
  r = shfl(w, 26, 5, 0x1f, SASS_SHFL_DOWN);
  EXPECT_EQ(r.value, 131u);
  EXPECT_TRUE(r.in_range);
  // Past lane 31: the caller's own value, predicate false.
  r = shfl(w, 27, 5, 0x1f, SASS_SHFL_DOWN);
  EXPECT_EQ(r.value, 127u);
  EXPECT_FALSE(r.in_range);
  r = shfl(w, 31, 1, 0x1f, SASS_SHFL_DOWN);
  EXPECT_EQ(r.value, 131u);
  EXPECT_FALSE(r.in_range);
}

TEST(LiftWarpSemantics, ShflDownInSegmentsOfEight) {
  const Warp w = counting_warp(0);
  // __shfl_down_sync(m, v, 2, 8): c = ((32 - 8) << 8) | 0x1f = 0x181f; lanes 8..15 form a segment.
  EXPECT_EQ(shfl(w, 9, 2, 0x181f, SASS_SHFL_DOWN).value, 11u);
  EXPECT_EQ(shfl(w, 13, 2, 0x181f, SASS_SHFL_DOWN).value, 15u);
  auto r = shfl(w, 14, 2, 0x181f, SASS_SHFL_DOWN);  // lane 16 is in the next segment
  EXPECT_EQ(r.value, 14u);
  EXPECT_FALSE(r.in_range);
}

TEST(LiftWarpSemantics, ShflUpWithWidthSixteen) {
  const Warp w = counting_warp(200);
  // __shfl_up_sync(m, v, 3, 16): c = (32 - 16) << 8 = 0x1000 (clamp 0).
  auto r = shfl(w, 19, 3, 0x1000, SASS_SHFL_UP);
  EXPECT_EQ(r.value, 216u);
  EXPECT_TRUE(r.in_range);
  r = shfl(w, 17, 3, 0x1000, SASS_SHFL_UP);  // lane 14 is in the first segment
  EXPECT_EQ(r.value, 217u);
  EXPECT_FALSE(r.in_range);
  r = shfl(w, 2, 3, 0x0, SASS_SHFL_UP);  // below lane 0
  EXPECT_EQ(r.value, 202u);
  EXPECT_FALSE(r.in_range);
  EXPECT_EQ(shfl(w, 3, 3, 0x0, SASS_SHFL_UP).value, 200u);
}

TEST(LiftWarpSemantics, ShflIdxAndBfly) {
  const Warp w = counting_warp(1000);
  // __shfl_sync(m, v, 7): lane 7 for everybody.
  EXPECT_EQ(shfl(w, 0, 7, 0x1f, SASS_SHFL_IDX).value, 1007u);
  EXPECT_EQ(shfl(w, 31, 7, 0x1f, SASS_SHFL_IDX).value, 1007u);
  // Only b[4:0] counts: lane 33 is lane 1.
  EXPECT_EQ(shfl(w, 5, 33, 0x1f, SASS_SHFL_IDX).value, 1001u);
  // __shfl_sync(m, v, 10, 8): within each 8-lane segment, lane 10 % 8 = 2 of the segment.
  EXPECT_EQ(shfl(w, 13, 10, 0x181f, SASS_SHFL_IDX).value, 1010u);
  EXPECT_EQ(shfl(w, 25, 10, 0x181f, SASS_SHFL_IDX).value, 1026u);
  // A clamp below the segment's lanes (c = 0x1803: lanes 0..3 of each 8): lane 6 is out of range.
  auto r = shfl(w, 9, 6, 0x1803, SASS_SHFL_IDX);
  EXPECT_EQ(r.value, 1009u);
  EXPECT_FALSE(r.in_range);
  // __shfl_xor_sync(m, v, 5).
  EXPECT_EQ(shfl(w, 2, 5, 0x1f, SASS_SHFL_BFLY).value, 1007u);
  EXPECT_EQ(shfl(w, 31, 5, 0x1f, SASS_SHFL_BFLY).value, 1026u);
  // xor 8 with 8-lane segments (c = 0x181f): lane 2 ^ 8 = 10 lies past the segment's clamp 7.
  r = shfl(w, 2, 8, 0x181f, SASS_SHFL_BFLY);
  EXPECT_EQ(r.value, 1002u);
  EXPECT_FALSE(r.in_range);
}

TEST(LiftWarpSemantics, VoteOverActiveLanesOnly) {
  Warp w;
  w.active = 0x0000ffffu;  // a partial warp: 16 lanes (a block of 48 threads, its second warp)
  // Lanes 0..15 vote (lane % 3 == 0): 0, 3, 6, 9, 12, 15; lane 0 asks.
  const std::uint32_t votes = (1u << 3) | (1u << 6) | (1u << 9) | (1u << 12) | (1u << 15) | (1u << 20);  // lane 20 inactive
  w.enter(0, votes);
  bool any = false, all = true, eq = true;
  EXPECT_EQ(gpuport_sass_vote(true, SASS_VOTE_ANY, &any), 0x9249u);
  EXPECT_TRUE(any);
  w.enter(0, votes);
  gpuport_sass_vote(true, SASS_VOTE_ALL, &all);
  EXPECT_FALSE(all);
  w.enter(0, votes);
  gpuport_sass_vote(true, SASS_VOTE_EQ, &eq);
  EXPECT_FALSE(eq);
  // Every active lane votes true (inactive lanes' bits do not count).
  w.enter(4, 0xffffffffu);
  EXPECT_EQ(gpuport_sass_vote(true, SASS_VOTE_ALL, &all), 0xffffu);
  EXPECT_TRUE(all);
  // Nobody votes: ALL false, ANY false, EQ true.
  w.enter(4, 0);
  EXPECT_EQ(gpuport_sass_vote(false, SASS_VOTE_EQ, &eq), 0u);
  EXPECT_TRUE(eq);
  w.enter(4, 0);
  gpuport_sass_vote(false, SASS_VOTE_ANY, &any);
  EXPECT_FALSE(any);
}

TEST(LiftWarpSemantics, MatchAnyAndAll) {
  Warp w;
  for (int i = 0; i < 32; ++i) w.values[i] = static_cast<std::uint32_t>(i % 4);
  w.active = 0x00ff00ffu;
  w.enter(1);
  // Lanes with value 1 among the active ones: 1, 5, 17, 21.
  EXPECT_EQ(gpuport_sass_match_any(1), (1u << 1) | (1u << 5) | (1u << 17) | (1u << 21));
  bool all = true;
  w.enter(1);
  EXPECT_EQ(gpuport_sass_match_all(1, &all), 0u);
  EXPECT_FALSE(all);
  Warp same;
  for (auto& v : same.values) v = 42;
  same.values[31] = 7;             // an inactive lane that differs does not matter
  same.active = 0x7fffffffu;
  same.enter(30);
  EXPECT_EQ(gpuport_sass_match_all(42, &all), 0x7fffffffu);
  EXPECT_TRUE(all);
}

TEST(LiftWarpSemantics, MatchAny64ComparesBothWords) {
  // MATCH.ANY.U64 reads the value as two words; lanes that agree only in the low word differ.
  auto& t = simulated_thread();
  t = {};
  t.lane = 0;
  t.active = 0xfu;
  // read_lane gives lane_values for other lanes for both words; simulate low words equal and high
  // words equal for lanes 0..3 (the native read_lane does not tell the two words apart, so a
  // warp whose lanes agree in both words gives all of them).
  for (int i = 0; i < 32; ++i) t.lane_values[i] = 5;
  EXPECT_EQ(gpuport_sass_match_any64(0x0000000500000005ull), 0xfu);
  // The caller's high word differs from what the others hold: only itself.
  EXPECT_EQ(gpuport_sass_match_any64(0x0000000600000005ull), 0x1u);
}

TEST(LiftWarpSemantics, ReduxSignedAndUnsigned) {
  Warp w;
  const std::int32_t values[6] = {5, -3, 17, 0, -40, 9};
  for (int i = 0; i < 6; ++i) w.values[i] = static_cast<std::uint32_t>(values[i]);
  w.values[6] = 0x7fffffff;  // inactive
  w.active = 0x3fu;
  auto redux = [&](std::uint32_t op, bool is_signed) {
    w.enter(2);
    return gpuport_sass_redux(w.values[2], op, is_signed);
  };
  EXPECT_EQ(redux(SASS_REDUX_SUM, true), static_cast<std::uint32_t>(5 - 3 + 17 + 0 - 40 + 9));
  EXPECT_EQ(redux(SASS_REDUX_MIN, true), static_cast<std::uint32_t>(-40));
  EXPECT_EQ(redux(SASS_REDUX_MAX, true), 17u);
  EXPECT_EQ(redux(SASS_REDUX_MIN, false), 0u);                          // unsigned: 0 is smallest
  EXPECT_EQ(redux(SASS_REDUX_MAX, false), static_cast<std::uint32_t>(-3));  // 0xfffffffd
  EXPECT_EQ(redux(SASS_REDUX_AND, false), 0u);
  EXPECT_EQ(redux(SASS_REDUX_OR, false), 5u | 0xfffffffdu | 17u | 0xffffffd8u | 9u);
  EXPECT_EQ(redux(SASS_REDUX_XOR, false), 5u ^ 0xfffffffdu ^ 17u ^ 0u ^ 0xffffffd8u ^ 9u);
  // One active lane: its own value.
  w.active = 0x4u;
  EXPECT_EQ(redux(SASS_REDUX_MIN, true), 17u);
}

TEST(LiftWarpSemantics, LaneMasks) {
  auto mask = [](std::uint32_t lane, std::uint32_t kind) {
    simulated_thread() = {};
    simulated_thread().lane = lane;
    return gpuport_sass_lanemask(kind);
  };
  EXPECT_EQ(mask(0, SASS_LANEMASK_EQ), 1u);
  EXPECT_EQ(mask(0, SASS_LANEMASK_LT), 0u);
  EXPECT_EQ(mask(0, SASS_LANEMASK_LE), 1u);
  EXPECT_EQ(mask(0, SASS_LANEMASK_GT), 0xfffffffeu);
  EXPECT_EQ(mask(0, SASS_LANEMASK_GE), 0xffffffffu);
  EXPECT_EQ(mask(5, SASS_LANEMASK_LT), 0x1fu);
  EXPECT_EQ(mask(5, SASS_LANEMASK_LE), 0x3fu);
  EXPECT_EQ(mask(5, SASS_LANEMASK_GT), 0xffffffc0u);
  EXPECT_EQ(mask(5, SASS_LANEMASK_GE), 0xffffffe0u);
  EXPECT_EQ(mask(31, SASS_LANEMASK_EQ), 0x80000000u);
  EXPECT_EQ(mask(31, SASS_LANEMASK_LT), 0x7fffffffu);
  EXPECT_EQ(mask(31, SASS_LANEMASK_LE), 0xffffffffu);
  EXPECT_EQ(mask(31, SASS_LANEMASK_GT), 0u);
  EXPECT_EQ(mask(31, SASS_LANEMASK_GE), 0x80000000u);
}

TEST(LiftWarpSemantics, VirtidHoldsTheWarpOfTheBlock) {
  auto& t = simulated_thread();
  t = {};
  t.block_size[0] = 48;
  t.block_size[1] = 2;
  t.thread[0] = 40;
  t.thread[1] = 1;  // linear id 88: warp 2
  EXPECT_EQ(gpuport_sass_virtid(), 2u << 8);
  EXPECT_EQ((gpuport_sass_virtid() >> 8) & 0x7f, 2u);
}

TEST(LiftWarpSemantics, BlockReduceNativeModel) {
  auto& t = simulated_thread();
  t = {};
  t.block_others = 47;
  t.block_others_passing = 10;
  EXPECT_EQ(gpuport_hook_block_reduce(nullptr, SASS_BLOCK_POPC, true), 11u);
  EXPECT_EQ(gpuport_hook_block_reduce(nullptr, SASS_BLOCK_AND, true), 0u);
  EXPECT_EQ(gpuport_hook_block_reduce(nullptr, SASS_BLOCK_OR, false), 1u);
  t.block_others_passing = 47;
  EXPECT_EQ(gpuport_hook_block_reduce(nullptr, SASS_BLOCK_AND, true), 1u);
  EXPECT_EQ(gpuport_hook_block_reduce(nullptr, SASS_BLOCK_AND, false), 0u);
}

// An argument buffer as nvcc packs it for vprintf (each argument at its natural alignment).
struct PrintfBuffer {
  alignas(8) unsigned char bytes[64] = {};
  std::size_t used = 0;
  template <typename T>
  void put(T value) {
    used = (used + sizeof(T) - 1) / sizeof(T) * sizeof(T);
    std::memcpy(bytes + used, &value, sizeof(T));
    used += sizeof(T);
  }
};

std::vector<std::pair<std::uint64_t, bool>> printf_arguments(const char* format, const PrintfBuffer& buffer) {
  std::vector<std::pair<std::uint64_t, bool>> out;
  const auto n = gpuport_printf::walk_arguments(format, reinterpret_cast<const char*>(buffer.bytes),
                                                [&](std::uint64_t v, bool is_string) { out.emplace_back(v, is_string); });
  EXPECT_EQ(n, out.size());
  return out;
}

TEST(LiftPrintfWalk, ReadsNvccsPackedArguments) {
  // printf("%d %lld %.2f %s %c [%*d] %hhx %zu %p", 7, 49LL, 3.5, "odd", 'c', 5, 2, 0x1ff, (size_t)9, ptr): the int at
  // 0, the long long at 8, the double at 16, the string at 24, 'c' at 32, the star at 36, 2 at 40,
  // 0x1ff at 44, the size_t at 48, the pointer at 56.
  PrintfBuffer b;
  const char* text = "odd";
  b.put<int>(7);
  b.put<long long>(49);
  b.put<double>(3.5);
  b.put<const char*>(text);
  b.put<int>('c');
  b.put<int>(5);
  b.put<int>(2);
  b.put<int>(0x1ff);
  b.put<std::size_t>(9);
  b.put<const void*>(&b);
  ASSERT_EQ(b.used, 64u);
  std::uint64_t half;
  const double d = 3.5;
  std::memcpy(&half, &d, 8);
  const auto args = printf_arguments("%d %lld %.2f %s %c [%*d] %hhx %zu %p\n", b);
  const std::vector<std::pair<std::uint64_t, bool>> want = {
      {7, false}, {49, false}, {half, false}, {reinterpret_cast<std::uint64_t>(text), true}, {'c', false}, {5, false},
      {2, false}, {0x1ff, false}, {9, false}, {reinterpret_cast<std::uint64_t>(&b), false}};
  EXPECT_EQ(args, want);
}

TEST(LiftPrintfWalk, PercentSignsAndIncompleteConversionsTakeNothing) {
  // "%%" and "%y" take no argument; a negative int arrives zero-extended (the host formatter
  // narrows it back by the conversion); "%.*f" takes the precision (4 bytes) before the double.
  PrintfBuffer b;
  b.put<int>(-1);
  b.put<int>(3);
  b.put<double>(0.25);
  std::uint64_t quarter;
  const double q = 0.25;
  std::memcpy(&quarter, &q, 8);
  const auto args = printf_arguments("100%% %y %d %.*f%", b);
  const std::vector<std::pair<std::uint64_t, bool>> want = {{0xffffffffu, false}, {3, false}, {quarter, false}};
  EXPECT_EQ(args, want);
  EXPECT_TRUE(printf_arguments("no arguments\n", b).empty());
}

// ---- the lifter ------------------------------------------------------------------------------

// Lifts one kernel made of `body` (instruction lines) and returns the findings' messages joined,
// or "" when it lifted.
std::string lift_findings(const std::string& body, int arch = 80) {
  std::string text = "\t.text._Z1kv:\n_Z1kv:\n";
  std::size_t address = 0;
  std::size_t start = 0;
  while (start < body.size()) {
    std::size_t nl = body.find('\n', start);
    if (nl == std::string::npos) nl = body.size();
    const std::string line = body.substr(start, nl - start);
    start = nl + 1;
    if (line.empty()) continue;
    char prefix[32];
    std::snprintf(prefix, sizeof prefix, "        /*%04zx*/ ", address);
    text += prefix + line + "\n";
    address += 16;
  }
  gpuport::sass::SassParseOptions po;
  po.arch = arch;
  auto parsed = gpuport::sass::parse_sass(text, po);
  if (parsed.programs.empty() || parsed.programs[0].functions.empty()) return "parse failed";
  auto module = gpuport::lift::make_lift_module("t", gpuport::lift::LiftTarget::gfx1100_wave32);
  if (!module) return "no module";
  gpuport::lift::LiftRequest request;
  request.program = &parsed.programs[0];
  request.kernel = &parsed.programs[0].functions[0];
  request.arch = arch;
  request.info.name = "_Z1kv";
  auto lifted = gpuport::lift::lift_kernel(*module.value().module, request);
  std::string out;
  for (const auto& d : lifted.findings) out += d.message + "\n";
  if (out.empty() && lifted.function == nullptr) out = "no function";
  if (out.empty() && !gpuport::lift::finalize_module(module.value(), true).empty()) out = "does not finalize";
  return out;
}

TEST(LiftWarpHandlers, LiftsTheFormsNvccEmits) {
  EXPECT_EQ(lift_findings("SHFL.DOWN PT, R5, R2, 0x10, 0x1f ;\n"
                          "SHFL.IDX P6, R14, R13, R12, R11 ;\n"
                          "SHFL.UP PT, R9, R2, 0x3, 0x1000 ;\n"
                          "SHFL.BFLY PT, R8, R2, 0x5, 0x1f ;\n"
                          "VOTE.ANY R4, PT, !P0 ;\n"
                          "VOTE.ALL P2, P2 ;\n"
                          "VOTEU.ANY UR4, UPT, PT ;\n"
                          "MATCH.ANY R19, R2 ;\n"
                          "MATCH.ANY.U64 R18, R6 ;\n"
                          "MATCH.ALL P4, R16, R2 ;\n"
                          "REDUX UR7, R2 ;\n"
                          "REDUX.SUM.S32 UR4, R2 ;\n"
                          "REDUX.MIN UR5, R2 ;\n"
                          "REDUX.MAX.S32 UR6, R2 ;\n"
                          "BAR.RED.POPC 0x0, !P1 ;\n"
                          "B2R.RESULT R17 ;\n"
                          "BAR.RED.AND 0x0, P1 ;\n"
                          "B2R.RESULT RZ, P0 ;\n"
                          "BAR.SYNC.DEFER_BLOCKING 0x0 ;\n"
                          "BAR.SYNC 0x3 ;\n"
                          "S2R R16, SR_LTMASK ;\n"
                          "S2R R12, SR_EQMASK ;\n"
                          "S2R R24, SR_VIRTID ;\n"
                          "S2UR UR38, SR_VIRTCFG ;\n"
                          "S2UR UR4, SR_CLOCKLO ;\n"
                          "CS2R.32 R5, SR_CLOCKHI ;\n"
                          "CS2R R2, SR_GLOBALTIMERLO ;\n"
                          "CS2R.32 R7, SR_GLOBALTIMERHI ;\n"
                          "NANOSLEEP 0x64 ;\n"
                          "EXIT ;\n"),
            "");
}

TEST(LiftWarpHandlers, LibraryCallsOfPrintfAndAssert) {
  // nvcc's device printf and assert: the format / message pointers in R4:R5, the rest after them.
  EXPECT_EQ(lift_findings("MOV R4, 0x1000 ;\nMOV R5, RZ ;\nMOV R6, 0x2000 ;\nMOV R7, RZ ;\n"
                          "CALL.ABS.NOINC `(vprintf) ;\nEXIT ;\n"),
            "");
  EXPECT_EQ(lift_findings("ISETP.NE.AND P0, PT, R2, 0x3039, PT ;\n@P0 EXIT ;\nCALL.ABS.NOINC `(__assertfail) ;\nEXIT ;\n"), "");
  EXPECT_NE(lift_findings("CALL.ABS.NOINC `(malloc) ;\nEXIT ;\n").find("not in the listing"), std::string::npos);
}

TEST(LiftWarpHandlers, RefusesWhatItCannotExpress) {
  EXPECT_NE(lift_findings("BAR.ARV 0x2, 0x40 ;\nEXIT ;\n").find("BAR.ARV"), std::string::npos);
  EXPECT_NE(lift_findings("BAR.SYNC 0x1, 0x40 ;\nEXIT ;\n").find("thread count"), std::string::npos);
  EXPECT_NE(lift_findings("BAR.SYNC R5, R5 ;\nEXIT ;\n").find("thread count"), std::string::npos);
  EXPECT_NE(lift_findings("VOTE.ALL R4, PT, P0 ;\nEXIT ;\n").find(".ANY only"), std::string::npos);
  EXPECT_NE(lift_findings("SHFL.DOWN.FOO PT, R5, R2, 0x10, 0x1f ;\nEXIT ;\n").find(".FOO"), std::string::npos);
  EXPECT_NE(lift_findings("REDUX.SUM.FOO UR4, R2 ;\nEXIT ;\n").find(".FOO"), std::string::npos);
  EXPECT_NE(lift_findings("S2R R0, SR_SMEMSZ ;\nEXIT ;\n").find("SR_SMEMSZ"), std::string::npos);
  EXPECT_NE(lift_findings("CS2R R4, SR_CLOCKHI ;\nEXIT ;\n").find("64-bit CS2R"), std::string::npos);
}

}  // namespace
