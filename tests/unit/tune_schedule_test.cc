// Legality of instruction moves inside basic blocks (src/tune/schedule.h) on the committed sm_80..
// sm_90 listings, the search's candidates, and the planted illegal moves the checker must refuse.
#include <gtest/gtest.h>

#include <algorithm>

#include "sass/parser.h"
#include "sass/printer.h"
#include "tune/cost_model.h"
#include "tune/schedule.h"
#include "tune/search.h"
#include "unit/sass_listing_util.h"
#include "unit/tune_test_util.h"

namespace gpuport::tune {
namespace {

using testing_util::load_listing;
using testing_util::tunable_listings;

TEST(TuneSchedule, OriginalOrderIsLegalEverywhere) {
  auto listings = tunable_listings();
  ASSERT_FALSE(listings.empty());
  for (const auto& path : listings) {
    auto program = load_listing(path);
    for (const sass::SassFunction& f : program.functions) {
      KernelSchedule s = analyse_schedule(f, program.arch);
      EXPECT_TRUE(s.problems.empty()) << path << " " << f.name << ": " << (s.problems.empty() ? "" : s.problems.front());
      EXPECT_TRUE(check_order(s, identity_order(s)).empty()) << path << " " << f.name;
    }
  }
}

// A small hand-made block: a load, an add that consumes it after a wait, a store of the sum.
sass::SassFunction make_function(const std::vector<std::pair<std::string, std::uint32_t>>& lines) {
  sass::SassFunction f;
  f.name = "k";
  f.is_entry = true;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    sass::SassInstruction inst;
    EXPECT_TRUE(sass::parse_instruction_text(lines[i].first, inst)) << lines[i].first;
    inst.address = 16 * i;
    inst.encoding_words = 2;
    inst.encoding = {i + 1, 0};  // distinct: identical instructions never swap
    sass::ControlCode c;
    std::uint32_t bits = lines[i].second;
    c.stall = bits & 15;
    c.write_barrier = bits >> 4 & 7;
    c.read_barrier = bits >> 8 & 7;
    c.wait_mask = bits >> 12 & 63;
    inst.control = c;
    f.instructions.push_back(inst);
  }
  return f;
}
// control: stall | write SB << 4 | read SB << 8 | wait mask << 12 (7 = no scoreboard).
constexpr std::uint32_t ctl(int stall, int wsb = 7, int rsb = 7, int wait = 0) {
  return static_cast<std::uint32_t>(stall | wsb << 4 | rsb << 8 | wait << 12);
}

TEST(TuneSchedule, PlantedIllegalMovesAreRefused) {
  sass::SassFunction f = make_function({
      {"S2R R0, SR_TID.X ;", ctl(1, 0)},             // 0: sets SB0
      {"MOV R7, 0x1 ;", ctl(1)},                     // 1
      {"LDG.E R4, [R2.64] ;", ctl(1, 1)},            // 2: sets SB1
      {"IADD3 R5, R12, 0x2, RZ ;", ctl(4)},          // 3
      {"IMAD R6, R0, 0x4, RZ ;", ctl(4, 7, 7, 1)},   // 4: waits SB0
      {"FADD R8, R4, R5 ;", ctl(4, 7, 7, 2)},        // 5: waits SB1
      {"BAR.SYNC.DEFER_BLOCKING 0x0 ;", ctl(1)},     // 6: fence
      {"STG.E [R2.64], R8 ;", ctl(1)},               // 7
      {"LDG.E R9, [R2.64+0x4] ;", ctl(1, 2)},        // 8: other address, same base
      {"STG.E [R10.64], R9 ;", ctl(1, 7, 7, 4)},     // 9: unknown base: may alias 7
      {"EXIT ;", ctl(5)},                            // 10
  });
  KernelSchedule s = analyse_schedule(f, 90);
  ASSERT_TRUE(s.problems.empty()) << s.problems.front();
  ASSERT_EQ(s.blocks.size(), 1u);
  Order order = identity_order(s);
  ASSERT_TRUE(check_order(s, order).empty());
  // A consumer above its producer.
  EXPECT_FALSE(try_move(s, order, 5, 2));
  // The wait on SB0 above its setter.
  EXPECT_FALSE(try_move(s, order, 4, 0));
  // Across the barrier, either way.
  EXPECT_FALSE(try_move(s, order, 7, 5));
  EXPECT_FALSE(try_move(s, order, 5, 7));
  // A store below a later store it may alias with: STG [R2] and STG [R10] keep their order,
  // though the load between them is free to cross the first store (another offset of R2).
  EXPECT_FALSE(try_move(s, order, 7, 9));
  // Shortening a fixed-latency distance: IADD3 R5 (stall 4) feeds FADD; moving MOV R7 ... is fine,
  // but moving the IADD3 right in front of the FADD leaves 4 cycles only if the IMAD stays; moving
  // the IMAD above the IADD3 keeps the IADD3 -> FADD distance at 4: legal.
  EXPECT_TRUE(check_order(s, order).empty());
  // Illegal whole orders name the reason.
  Order bad = identity_order(s);
  std::swap(bad[2], bad[5]);
  auto problems = check_order(s, bad);
  ASSERT_FALSE(problems.empty());
  EXPECT_NE(problems.front().find("dependence reversed"), std::string::npos) << problems.front();
  // A legal one: the LDG can go above the independent MOV (SB1 has no earlier user, and the MOV's
  // value is read in no later instruction of the block).
  Order good = identity_order(s);
  EXPECT_TRUE(try_move(s, good, 2, 1));
  EXPECT_TRUE(check_order(s, good).empty());
  EXPECT_EQ(good[1], 2u);
  EXPECT_EQ(good[2], 1u);
  // The second load may rise above the store of another offset from the same base value...
  Order mem = identity_order(s);
  EXPECT_TRUE(try_move(s, mem, 8, 7));
  // ...but not when the base register is redefined in between.
}

TEST(TuneSchedule, StallDistancesAreKept) {
  sass::SassFunction f = make_function({
      {"IADD3 R5, R7, 0x2, RZ ;", ctl(1)},  // 0: fixed latency, consumer 4 cycles later
      {"MOV R8, 0x1 ;", ctl(1)},            // 1
      {"MOV R9, 0x1 ;", ctl(1)},            // 2
      {"MOV R10, 0x1 ;", ctl(1)},           // 3
      {"FADD R6, R5, R8 ;", ctl(1)},        // 4
      {"EXIT ;", ctl(5)},
  });
  KernelSchedule s = analyse_schedule(f, 90);
  ASSERT_TRUE(s.problems.empty());
  Order order = identity_order(s);
  // Moving MOV R10 (independent) below the FADD would leave 3 cycles between IADD3 and FADD.
  EXPECT_FALSE(try_move(s, order, 3, 4));
  // Moving MOV R9 above the IADD3 keeps the distance too (it leaves the window): 3 cycles, refused.
  EXPECT_FALSE(try_move(s, order, 2, 0));
  // The FADD reads R8, so MOV R8 cannot pass it; moving it above the IADD3 shortens the window.
  EXPECT_FALSE(try_move(s, order, 1, 0));
  // With stalls that may be raised, the first move is paid for by a longer stall before the FADD.
  StallPlan stalls = original_stalls(s);
  ASSERT_TRUE(try_move(s, order, 3, 4, &stalls));
  EXPECT_EQ(order[3], 4u);  // FADD now right after MOV R9
  EXPECT_EQ(stalls[2], 2);  // MOV R9's stall raised from 1 to 2: IADD3 -> FADD is 4 cycles again
  EXPECT_TRUE(check_order(s, order, stalls).empty());
  EXPECT_FALSE(check_order(s, order).empty());  // not without the raised stall
  // A raised stall that is no longer needed is lowered again.
  StallPlan extra = stalls;
  extra[0] = 9;
  relax_stalls(s, order, extra);
  EXPECT_EQ(extra, stalls);
  // A stall the encoding cannot hold (above 11 with the yield bit set) is refused.
  StallPlan unencodable = stalls;
  sass::ControlCode yielding;
  yielding.yield = true;
  EXPECT_EQ(max_stall(yielding), 11);
  EXPECT_EQ(max_stall(sass::ControlCode{}), 15);
  unencodable[0] = 16;
  EXPECT_FALSE(check_order(s, order, unencodable).empty());
  // Dependences are never paid for with stalls: the FADD still cannot go above the IADD3.
  Order o2 = identity_order(s);
  StallPlan st2 = original_stalls(s);
  EXPECT_FALSE(try_move(s, o2, 4, 0, &st2));
}

TEST(TuneSearch, CandidatesAreLegalAndBetterByTheModel) {
  auto listings = tunable_listings();
  std::size_t with_candidates = 0, total = 0;
  for (const auto& path : listings) {
    auto program = load_listing(path);
    for (const sass::SassFunction& f : program.functions) {
      if (!f.is_entry) continue;
      KernelSchedule s = analyse_schedule(f, program.arch);
      CostModel model;
      SearchOptions options;
      options.steps = 2000;
      options.candidates = 4;
      SearchResult r = search_schedules(s, model, options);
      ++total;
      with_candidates += !r.candidates.empty();
      for (const Candidate& c : r.candidates) {
        auto problems = check_order(s, c.order, c.stalls);
        EXPECT_TRUE(problems.empty()) << path << " " << c.id << " " << c.strategy << ": " << problems.front();
        // Better by the model, or (load hoisting, which the single-warp model cannot credit) at
        // most 1% worse.
        EXPECT_LE(c.model_cycles, r.original_cycles * 1.01) << c.strategy;
        if (c.strategy.find("hoist") == std::string::npos) {
          EXPECT_LT(c.model_cycles, r.original_cycles) << c.strategy;
        }
        EXPECT_GT(c.moved, 0u);
      }
      // Deterministic.
      SearchResult again = search_schedules(s, model, options);
      ASSERT_EQ(again.candidates.size(), r.candidates.size());
      for (std::size_t i = 0; i < r.candidates.size(); ++i) EXPECT_EQ(again.candidates[i].order, r.candidates[i].order);
    }
  }
  EXPECT_GT(with_candidates, total / 4) << with_candidates << " of " << total;
}

TEST(TuneCostModel, HoistingALoadAboveIndependentWorkIsCheaper) {
  sass::SassFunction f = make_function({
      {"MOV R7, 0x1 ;", ctl(2)},
      {"MOV R8, 0x1 ;", ctl(2)},
      {"MOV R9, 0x1 ;", ctl(2)},
      {"LDG.E R4, [R2.64] ;", ctl(1, 1)},
      {"FADD R10, R4, R4 ;", ctl(4, 7, 7, 2)},
      {"EXIT ;", ctl(5)},
  });
  KernelSchedule s = analyse_schedule(f, 90);
  CostModel model;
  Order order = identity_order(s);
  double before = estimate_cost(s, model, order).cycles;
  ASSERT_TRUE(try_move(s, order, 3, 0));
  double after = estimate_cost(s, model, order).cycles;
  EXPECT_LT(after, before);
  EXPECT_NEAR(before - after, 6, 0.01);  // the three MOVs' stalls now overlap the load
  // Calibration recovers a scale from measurements the model with that scale would predict.
  CostModel truth;
  truth.scale[static_cast<int>(LatencyClass::global_memory)] = 0.5;
  double ratio = estimate_cost(s, truth, order).cycles / estimate_cost(s, truth, identity_order(s)).cycles;
  double e0 = 0, e1 = 0;
  CostModel fitted = calibrate(s, model, {{order, ratio}}, &e0, &e1);
  EXPECT_LT(e1, e0);
  EXPECT_LT(e1, 1e-6);
  (void)fitted;
}

}  // namespace
}  // namespace gpuport::tune
