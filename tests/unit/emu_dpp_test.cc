// DPP16, DPP8 and the cross-lane instructions (v_permlane16/x16/64, ds_swizzle_b32,
// ds_bpermute/ds_permute, v_movrel*) on hand-written gfx1100 assembly, wave32 and wave64. Every
// expected value is derived here, lane by lane, from the RDNA3 ISA guide's definitions (and
// LLVM's modifier syntax page for how bound_ctrl, fi and the permlane op_sel bits are spelled).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <functional>

#include "emu_asm.h"

namespace gpuport::emu::testing {
namespace {

#define RUN_ASM(var, kernel, launch)                             \
  auto var = run_asm(kernel, launch);                            \
  if (!var.skip_reason.empty()) GTEST_SKIP() << var.skip_reason; \
  ASSERT_EQ(var.error, "") << asm_source(kernel)

using u32 = std::uint32_t;
using u64 = std::uint64_t;

constexpr u32 kOld = 0xdead0000u;  // a destination's value before the instruction: kOld | lane
const char* kOldLine = "  v_or_b32 v3, 0xdead0000, v0\n";

// The next output slice: s[6:7] moves on by one wave of words.
std::string next_slice(unsigned wave) { return fmt::format("  s_add_u32 s6, s6, {}\n  s_addc_u32 s7, s7, 0\n", wave * 4); }

std::string set_exec(u64 mask, bool wave64) {
  std::string s = fmt::format("  s_mov_b32 exec_lo, 0x{:x}\n", static_cast<u32>(mask));
  if (wave64) s += fmt::format("  s_mov_b32 exec_hi, 0x{:x}\n", static_cast<u32>(mask >> 32));
  return s;
}
std::string all_lanes(bool wave64) { return set_exec(~0ull, wave64); }
// An SGPR mask (s20, or s[20:21] in wave64) as 0/1 per lane into v`reg`.
std::string mask_to_vgpr(unsigned reg, bool wave64) {
  return fmt::format("  v_cndmask_b32_e64 v{}, 0, 1, {}\n", reg, wave64 ? "s[20:21]" : "s20");
}
std::string save_mask(bool wave64, const char* what) {
  return wave64 ? fmt::format("  s_mov_b64 s[20:21], {}\n", what) : fmt::format("  s_mov_b32 s20, {}_lo\n", what);
}

bool bit(u64 mask, unsigned lane) { return (mask >> lane) & 1; }

// The DPP16 controls as the guide's DPP_CTRL table defines them: the lane (of the 16 in a row, the
// 4 in a quad, the 8 in a half row) that lane l reads, or -1 past the row's edge.
struct Control {
  std::string text;
  std::function<int(unsigned)> source;
};
std::vector<Control> controls() {
  auto quad = [](std::array<int, 4> sel) { return [sel](unsigned l) { return static_cast<int>(l / 4 * 4) + sel[l % 4]; }; };
  auto row = [](unsigned l) { return static_cast<int>(l / 16 * 16); };
  std::vector<Control> c = {
      {"quad_perm:[1,0,3,2]", quad({1, 0, 3, 2})},
      {"quad_perm:[3,3,0,1]", quad({3, 3, 0, 1})},
      {"quad_perm:[0,1,2,3]", quad({0, 1, 2, 3})},
      {"row_mirror", [=](unsigned l) { return row(l) + 15 - static_cast<int>(l % 16); }},
      {"row_half_mirror", [](unsigned l) { return static_cast<int>(l / 8 * 8 + 7 - l % 8); }},
  };
  for (int n : {1, 2, 7, 15}) {
    c.push_back({fmt::format("row_shl:{}", n), [=](unsigned l) { return static_cast<int>(l % 16) + n < 16 ? static_cast<int>(l) + n : -1; }});
    c.push_back({fmt::format("row_shr:{}", n), [=](unsigned l) { return static_cast<int>(l % 16) - n >= 0 ? static_cast<int>(l) - n : -1; }});
    c.push_back({fmt::format("row_ror:{}", n), [=](unsigned l) { return row(l) + (static_cast<int>(l % 16) - n + 16) % 16; }});
  }
  for (int n : {0, 5, 13, 15}) c.push_back({fmt::format("row_share:{}", n), [=](unsigned l) { return row(l) + n; }});
  for (int n : {1, 6, 8, 15}) c.push_back({fmt::format("row_xmask:{}", n), [=](unsigned l) { return row(l) + (static_cast<int>(l % 16) ^ n); }});
  return c;
}

std::vector<u32> lane_values(unsigned wave, u32 base = 1000, u32 step = 7) {
  std::vector<u32> v(wave);
  for (unsigned l = 0; l < wave; ++l) v[l] = base + step * l;
  return v;
}

// Every control, bound_ctrl on and off, as a pure lane move (v_mov_b32_dpp) with EXEC full:
// lanes whose source is past the row's edge keep their value (bound_ctrl:0) or read 0
// (bound_ctrl:1); everything else reads its source lane.
TEST(EmuDpp, EveryRowControlMovesLanesAsTheGuideDefines) {
  const auto list = controls();
  for (bool wave64 : {false, true})
    for (bool bound_ctrl : {false, true}) {
      const unsigned wave = wave64 ? 64 : 32;
      AsmKernel k;
      k.wave64 = wave64;
      k.body = "  global_load_b32 v2, v1, s[4:5]\n  s_waitcnt vmcnt(0)\n";
      for (const auto& c : list)
        k.body += std::string(kOldLine) + fmt::format("  v_mov_b32_dpp v3, v2 {} row_mask:0xf bank_mask:0xf{}\n", c.text, bound_ctrl ? " bound_ctrl:1" : " bound_ctrl:0") +
                  "  global_store_b32 v1, v3, s[6:7]\n" + next_slice(wave);
      AsmLaunch l;
      l.threads = wave;
      l.in = lane_values(wave);
      l.out_words = list.size() * wave;
      RUN_ASM(r, k, l);
      for (std::size_t i = 0; i < list.size(); ++i)
        for (unsigned lane = 0; lane < wave; ++lane) {
          const int from = list[i].source(lane);
          const u32 expect = from >= 0 ? l.in[from] : bound_ctrl ? 0 : kOld | lane;
          EXPECT_EQ(r.out[i * wave + lane], expect) << list[i].text << " wave" << wave << " bound_ctrl:" << bound_ctrl << " lane " << lane;
        }
    }
}

// A few of the same by hand, so that the table above is not the only witness.
TEST(EmuDpp, RowEdgesByHand) {
  AsmKernel k;
  k.wave64 = true;
  k.body = std::string("  global_load_b32 v2, v1, s[4:5]\n  s_waitcnt vmcnt(0)\n") + kOldLine +
           "  v_mov_b32_dpp v3, v2 row_shr:1 row_mask:0xf bank_mask:0xf\n  global_store_b32 v1, v3, s[6:7]\n" + next_slice(64) + kOldLine +
           "  v_mov_b32_dpp v3, v2 row_shl:3 row_mask:0xf bank_mask:0xf bound_ctrl:1\n  global_store_b32 v1, v3, s[6:7]\n" + next_slice(64) +
           "  v_mov_b32_dpp v3, v2 row_share:15 row_mask:0xf bank_mask:0xf\n  global_store_b32 v1, v3, s[6:7]\n";
  AsmLaunch l;
  l.threads = 64;
  l.in = lane_values(64, 100, 1);  // in[lane] = 100 + lane
  l.out_words = 3 * 64;
  RUN_ASM(r, k, l);
  EXPECT_EQ(r.out[0], kOld | 0);      // row_shr:1: lane 0 has no lane to its left in the row
  EXPECT_EQ(r.out[1], 100u);          // lane 1 reads lane 0
  EXPECT_EQ(r.out[16], kOld | 16);    // the first lane of row 1 does not reach back into row 0
  EXPECT_EQ(r.out[47], 146u);
  EXPECT_EQ(r.out[48], kOld | 48);
  EXPECT_EQ(r.out[64 + 12], 115u);    // row_shl:3: lane 12 reads lane 15
  EXPECT_EQ(r.out[64 + 13], 0u);      // lane 13 would read lane 16: bound_ctrl:1 gives 0
  EXPECT_EQ(r.out[64 + 63], 0u);
  EXPECT_EQ(r.out[128 + 0], 115u);    // row_share:15: every lane of a row reads its lane 15
  EXPECT_EQ(r.out[128 + 40], 147u);
}

// row_mask and bank_mask partly off, on a VOP2 add: the masked lanes keep their value, and may
// still be read by others (lane 4 reads lane 3 of a disabled bank).
TEST(EmuDpp, RowAndBankMasksKeepLanesButNotSources) {
  for (bool wave64 : {false, true})
    for (bool bound_ctrl : {false, true}) {
      const unsigned wave = wave64 ? 64 : 32;
      const u32 row_mask = 0x5, bank_mask = 0x6;
      AsmKernel k;
      k.wave64 = wave64;
      k.body = std::string("  global_load_b32 v2, v1, s[4:5]\n  v_mul_u32_u24 v4, 3, v0\n  s_waitcnt vmcnt(0)\n") + kOldLine +
               fmt::format("  v_add_nc_u32_dpp v3, v2, v4 row_shr:1 row_mask:0x{:x} bank_mask:0x{:x}{}\n", row_mask, bank_mask,
                           bound_ctrl ? " bound_ctrl:1" : "") +
               "  global_store_b32 v1, v3, s[6:7]\n";
      AsmLaunch l;
      l.threads = wave;
      l.in = lane_values(wave);
      RUN_ASM(r, k, l);
      for (unsigned lane = 0; lane < wave; ++lane) {
        const bool writes = bit(row_mask, lane / 16) && bit(bank_mask, lane % 16 / 4);
        u32 expect = kOld | lane;
        if (writes && lane % 16 >= 1) expect = l.in[lane - 1] + 3 * lane;
        else if (writes && bound_ctrl) expect = 0 + 3 * lane;
        EXPECT_EQ(r.out[lane], expect) << "wave" << wave << " bound_ctrl " << bound_ctrl << " lane " << lane;
      }
    }
}

// EXEC with holes: a source lane outside EXEC is invalid unless fi:1, and then bound_ctrl
// decides (0 or no write); lanes outside EXEC never write.
TEST(EmuDpp, FetchInactiveAndBoundCtrlWithExecHoles) {
  const std::vector<Control> list = {
      {"row_shr:1", [](unsigned l) { return l % 16 >= 1 ? static_cast<int>(l) - 1 : -1; }},
      {"quad_perm:[2,3,0,1]", [](unsigned l) { return static_cast<int>(l ^ 2); }},
      {"row_xmask:5", [](unsigned l) { return static_cast<int>(l ^ 5); }},
      {"row_share:2", [](unsigned l) { return static_cast<int>(l / 16 * 16 + 2); }},
  };
  const u64 exec = 0x0f0fa5a5f0f35a6dull;
  for (bool wave64 : {false, true}) {
    const unsigned wave = wave64 ? 64 : 32;
    const u64 lanes = wave64 ? exec : exec & 0xffffffffu;
    AsmKernel k;
    k.wave64 = wave64;
    k.body = "  global_load_b32 v2, v1, s[4:5]\n  s_waitcnt vmcnt(0)\n";
    std::vector<std::pair<bool, bool>> modes = {{false, false}, {false, true}, {true, false}, {true, true}};
    for (const auto& c : list)
      for (auto [fi, bc] : modes)
        k.body += std::string(kOldLine) + set_exec(lanes, wave64) +
                  fmt::format("  v_mov_b32_dpp v3, v2 {} row_mask:0xf bank_mask:0xf{}{}\n", c.text, bc ? " bound_ctrl:1" : "", fi ? " fi:1" : "") +
                  all_lanes(wave64) + "  global_store_b32 v1, v3, s[6:7]\n" + next_slice(wave);
    AsmLaunch l;
    l.threads = wave;
    l.in = lane_values(wave);
    l.out_words = list.size() * modes.size() * wave;
    RUN_ASM(r, k, l);
    std::size_t slice = 0;
    for (const auto& c : list)
      for (auto [fi, bc] : modes) {
        for (unsigned lane = 0; lane < wave; ++lane) {
          u32 expect = kOld | lane;
          const int from = c.source(lane);
          if (bit(lanes, lane)) {
            if (from >= 0 && (fi || bit(lanes, from))) expect = l.in[from];
            else if (bc) expect = 0;
          }
          EXPECT_EQ(r.out[slice * wave + lane], expect) << c.text << " fi:" << fi << " bound_ctrl:" << bc << " wave" << wave << " lane " << lane;
        }
        ++slice;
      }
  }
}

// DPP8: any lane of the group of 8; an inactive source reads 0 unless fi:1.
TEST(EmuDpp, Dpp8SelectsWithinGroupsOfEight) {
  const std::array<unsigned, 8> sel = {7, 0, 6, 1, 5, 2, 4, 3};
  const u64 exec = 0xfedc7f3d5b9e6ff7ull;
  for (bool wave64 : {false, true}) {
    const unsigned wave = wave64 ? 64 : 32;
    const u64 lanes = wave64 ? exec : exec & 0xffffffffu;
    AsmKernel k;
    k.wave64 = wave64;
    k.body = "  global_load_b32 v2, v1, s[4:5]\n  v_mul_u32_u24 v4, 5, v0\n  s_waitcnt vmcnt(0)\n";
    for (bool fi : {false, true})
      k.body += std::string(kOldLine) + set_exec(lanes, wave64) + fmt::format("  v_add_nc_u32_dpp v3, v2, v4 dpp8:[7,0,6,1,5,2,4,3]{}\n", fi ? " fi:1" : "") +
                all_lanes(wave64) + "  global_store_b32 v1, v3, s[6:7]\n" + next_slice(wave);
    // The VOP3 form with DPP8.
    k.body += std::string(kOldLine) + "  v_sub_nc_u32_e64_dpp v3, v2, v4 dpp8:[1,1,1,1,0,0,0,0]\n  global_store_b32 v1, v3, s[6:7]\n";
    AsmLaunch l;
    l.threads = wave;
    l.in = lane_values(wave);
    l.out_words = 3 * wave;
    RUN_ASM(r, k, l);
    for (bool fi : {false, true})
      for (unsigned lane = 0; lane < wave; ++lane) {
        const unsigned from = lane / 8 * 8 + sel[lane % 8];
        u32 expect = kOld | lane;
        if (bit(lanes, lane)) expect = (fi || bit(lanes, from) ? l.in[from] : 0) + 5 * lane;
        EXPECT_EQ(r.out[(fi ? wave : 0) + lane], expect) << "fi:" << fi << " wave" << wave << " lane " << lane;
      }
    for (unsigned lane = 0; lane < wave; ++lane)
      EXPECT_EQ(r.out[2 * wave + lane], l.in[lane / 8 * 8 + (lane % 8 < 4 ? 1 : 0)] - 5 * lane) << "e64 dpp8 lane " << lane;
  }
}

// Compares with DPP (VOPC e32 into VCC, VOP3 into an SGPR, v_cmpx into EXEC): a lane that does
// not write (outside EXEC, masked by row/bank, invalid source with bound_ctrl:0) gets a 0 bit,
// whatever the mask held; with bound_ctrl:1 an invalid source compares as 0.
TEST(EmuDpp, ComparesWriteZeroForLanesThatDoNotWrite) {
  const u64 exec = 0xf7ff3dff7ffb5fefull;
  const u32 row_mask = 0xb, bank_mask = 0xd;
  for (bool wave64 : {false, true})
    for (bool bound_ctrl : {false, true}) {
      const unsigned wave = wave64 ? 64 : 32;
      const u64 lanes = wave64 ? exec : exec & 0xffffffffu;
      const std::string dpp = fmt::format("row_shr:2 row_mask:0x{:x} bank_mask:0x{:x}{}", row_mask, bank_mask, bound_ctrl ? " bound_ctrl:1" : "");
      AsmKernel k;
      k.wave64 = wave64;
      const std::string vcc = wave64 ? "vcc" : "vcc_lo";
      k.body = "  global_load_b32 v2, v1, s[4:5]\n  global_load_b32 v4, v1, s[8:9]\n  s_waitcnt vmcnt(0)\n";
      // e32 into VCC, which held all ones.
      k.body += fmt::format("  s_mov_b{0} {1}, -1\n", wave64 ? 64 : 32, vcc) + set_exec(lanes, wave64) +
                fmt::format("  v_cmp_lt_u32 {}, v2, v4 {}\n", vcc, dpp) + all_lanes(wave64) + save_mask(wave64, "vcc") + mask_to_vgpr(5, wave64) +
                "  global_store_b32 v1, v5, s[6:7]\n" + next_slice(wave);
      // VOP3 (e64_dpp) into s[22:23] / s22, then copied to s20.
      const std::string sdst = wave64 ? "s[22:23]" : "s22";
      k.body += fmt::format("  s_mov_b{0} {1}, -1\n", wave64 ? 64 : 32, sdst) + set_exec(lanes, wave64) +
                fmt::format("  v_cmp_lt_u32_e64_dpp {}, v2, v4 {}\n", sdst, dpp) + all_lanes(wave64) +
                fmt::format("  s_mov_b{0} {1}, {2}\n", wave64 ? 64 : 32, wave64 ? "s[20:21]" : "s20", sdst) + mask_to_vgpr(5, wave64) +
                "  global_store_b32 v1, v5, s[6:7]\n" + next_slice(wave);
      // v_cmpx: the new EXEC.
      k.body += set_exec(lanes, wave64) + fmt::format("  v_cmpx_lt_u32 v2, v4 {}\n", dpp) + save_mask(wave64, "exec") + all_lanes(wave64) +
                mask_to_vgpr(5, wave64) + "  global_store_b32 v1, v5, s[6:7]\n";
      AsmLaunch l;
      l.threads = wave;
      l.in = lane_values(wave, 1000, 7);
      for (unsigned lane = 0; lane < wave; ++lane) l.aux.push_back(1000 + 7 * ((lane * 5 + 3) % wave));
      l.out_words = 3 * wave;
      RUN_ASM(r, k, l);
      for (unsigned form = 0; form < 3; ++form)
        for (unsigned lane = 0; lane < wave; ++lane) {
          bool expect = false;
          const bool writes = bit(lanes, lane) && bit(row_mask, lane / 16) && bit(bank_mask, lane % 16 / 4);
          const int from = lane % 16 >= 2 ? static_cast<int>(lane) - 2 : -1;
          if (writes && from >= 0 && bit(lanes, from)) expect = l.in[from] < l.aux[lane];
          else if (writes && bound_ctrl) expect = 0 < l.aux[lane];
          EXPECT_EQ(r.out[form * wave + lane], expect ? 1u : 0u)
              << "form " << form << " wave" << wave << " bound_ctrl " << bound_ctrl << " lane " << lane;
        }
    }
}

u32 fbits(float f) { return std::bit_cast<u32>(f); }
float bitsf(u32 u) { return std::bit_cast<float>(u); }

// Source modifiers apply to the fetched value; VOP3 DPP (_e64_dpp) with three sources, clamp and
// a carry-out; v_mov_b32_e64_dpp.
TEST(EmuDpp, ModifiersVop3FormsAndCarries) {
  for (bool wave64 : {false, true}) {
    const unsigned wave = wave64 ? 64 : 32;
    AsmKernel k;
    k.wave64 = wave64;
    const std::string carry = wave64 ? "s[20:21]" : "s20";
    k.body = std::string("  global_load_b32 v2, v1, s[4:5]\n  global_load_b32 v4, v1, s[8:9]\n  v_mov_b32 v5, 0.5\n  s_waitcnt vmcnt(0)\n") +
             kOldLine + "  v_add_f32_dpp v3, -v2, |v4| row_xmask:3 row_mask:0xf bank_mask:0xf\n  global_store_b32 v1, v3, s[6:7]\n" + next_slice(wave) +
             kOldLine + "  v_fma_f32_e64_dpp v3, v2, v4, v5 quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf\n  global_store_b32 v1, v3, s[6:7]\n" + next_slice(wave) +
             kOldLine + "  v_mul_f32_e64_dpp v3, v2, v4 clamp row_mirror row_mask:0xf bank_mask:0xf\n  global_store_b32 v1, v3, s[6:7]\n" + next_slice(wave) +
             kOldLine + "  v_mov_b32_e64_dpp v3, v2 row_ror:5 row_mask:0xf bank_mask:0xf\n  global_store_b32 v1, v3, s[6:7]\n" + next_slice(wave) +
             kOldLine + "  v_add3_u32_e64_dpp v3, v2, v4, v0 row_share:9 row_mask:0xf bank_mask:0xf\n  global_store_b32 v1, v3, s[6:7]\n" + next_slice(wave) +
             // Carry-out: lanes 0 of each row read past the edge and do not write (bound_ctrl:0).
             fmt::format("  s_mov_b{} {}, -1\n", wave64 ? 64 : 32, carry) + kOldLine +
             fmt::format("  v_add_co_u32_e64_dpp v3, {}, v2, v4 row_shr:1 row_mask:0xf bank_mask:0xf\n", carry) +
             "  global_store_b32 v1, v3, s[6:7]\n" + next_slice(wave) + mask_to_vgpr(6, wave64) + "  global_store_b32 v1, v6, s[6:7]\n";
    AsmLaunch l;
    l.threads = wave;
    for (unsigned lane = 0; lane < wave; ++lane) {
      l.in.push_back(fbits(0.25f * static_cast<float>(lane) - 3.125f));  // never 0: no signed zero to clamp
      l.aux.push_back(fbits(-1.5f + 0.125f * static_cast<float>(lane % 7)));
    }
    l.out_words = 7 * wave;
    RUN_ASM(r, k, l);
    auto in = [&](unsigned lane) { return bitsf(l.in[lane]); };
    auto aux = [&](unsigned lane) { return bitsf(l.aux[lane]); };
    for (unsigned lane = 0; lane < wave; ++lane) {
      const unsigned rowbase = lane / 16 * 16, i = lane % 16;
      EXPECT_EQ(r.out[lane], fbits(-in(rowbase + (i ^ 3)) + std::fabs(aux(lane)))) << lane;
      EXPECT_EQ(r.out[wave + lane], fbits(std::fma(in(lane / 4 * 4 + 3 - lane % 4), aux(lane), 0.5f))) << lane;
      EXPECT_EQ(r.out[2 * wave + lane], fbits(std::clamp(in(rowbase + 15 - i) * aux(lane), 0.0f, 1.0f))) << lane;
      EXPECT_EQ(r.out[3 * wave + lane], l.in[rowbase + (i + 11) % 16]) << lane;
      EXPECT_EQ(r.out[4 * wave + lane], l.in[rowbase + 9] + l.aux[lane] + lane) << lane;
      const bool writes = i >= 1;
      const u64 sum = writes ? static_cast<u64>(l.in[lane - 1]) + l.aux[lane] : 0;
      EXPECT_EQ(r.out[5 * wave + lane], writes ? static_cast<u32>(sum) : kOld | lane) << lane;
      EXPECT_EQ(r.out[6 * wave + lane], writes && (sum >> 32) ? 1u : 0u) << lane;
    }
  }
}

// v_permlane16_b32 / v_permlanex16_b32 with arbitrary selects, EXEC holes, and every op_sel:[fi,
// bound_ctrl] combination; v_permlane64_b32.
TEST(EmuDpp, PermlanesWithArbitrarySelects) {
  const u32 select_lo = 0x3f1e8c27, select_hi = 0xb5d40a96;
  const u64 exec = 0xbfff7ffd6ffbfeefull;
  for (bool wave64 : {false, true}) {
    const unsigned wave = wave64 ? 64 : 32;
    const u64 lanes = wave64 ? exec : exec & 0xffffffffu;
    AsmKernel k;
    k.wave64 = wave64;
    k.body = fmt::format("  global_load_b32 v2, v1, s[4:5]\n  s_mov_b32 s22, 0x{:x}\n  s_mov_b32 s23, 0x{:x}\n  s_waitcnt vmcnt(0)\n", select_lo, select_hi);
    for (const char* name : {"v_permlane16_b32", "v_permlanex16_b32"})
      for (int fi = 0; fi < 2; ++fi)
        for (int bc = 0; bc < 2; ++bc)
          k.body += std::string(kOldLine) + set_exec(lanes, wave64) + fmt::format("  {} v3, v2, s22, s23 op_sel:[{},{}]\n", name, fi, bc) +
                    all_lanes(wave64) + "  global_store_b32 v1, v3, s[6:7]\n" + next_slice(wave);
    k.body += std::string(kOldLine) + "  v_permlanex16_b32 v3, v2, -1, -1\n  global_store_b32 v1, v3, s[6:7]\n" + next_slice(wave);
    k.body += std::string(kOldLine) + set_exec(lanes, wave64) + "  v_permlane64_b32 v3, v2\n" + all_lanes(wave64) + "  global_store_b32 v1, v3, s[6:7]\n";
    AsmLaunch l;
    l.threads = wave;
    l.in = lane_values(wave, 500, 3);
    l.out_words = 10 * wave;
    RUN_ASM(r, k, l);
    const u64 select = select_lo | static_cast<u64>(select_hi) << 32;
    std::size_t slice = 0;
    for (bool cross : {false, true})
      for (int fi = 0; fi < 2; ++fi)
        for (int bc = 0; bc < 2; ++bc) {
          for (unsigned lane = 0; lane < wave; ++lane) {
            const unsigned row = lane / 16 ^ (cross ? 1 : 0);
            const unsigned from = row * 16 + static_cast<unsigned>((select >> (4 * (lane % 16))) & 15);
            u32 expect = kOld | lane;
            if (bit(lanes, lane)) {
              if (fi || bit(lanes, from)) expect = l.in[from];
              else if (bc) expect = 0;
            }
            EXPECT_EQ(r.out[slice * wave + lane], expect) << (cross ? "x16" : "16") << " fi " << fi << " bc " << bc << " wave" << wave << " lane " << lane;
          }
          ++slice;
        }
    for (unsigned lane = 0; lane < wave; ++lane) {
      EXPECT_EQ(r.out[8 * wave + lane], l.in[(lane / 16 ^ 1) * 16 + 15]) << "x16 by -1 lane " << lane;  // every lane reads lane 15 of the other row
      const u32 expect64 = !bit(lanes, lane) ? kOld | lane : wave64 ? l.in[lane ^ 32] : kOld | lane;  // a no-op in wave32
      EXPECT_EQ(r.out[9 * wave + lane], expect64) << "permlane64 wave" << wave << " lane " << lane;
    }
  }
}

unsigned reverse5(unsigned x) {
  unsigned r = 0;
  for (int b = 0; b < 5; ++b)
    if (x & (1u << b)) r |= 1u << (4 - b);
  return r;
}

// ds_swizzle_b32 in each mode of the guide. The bit-mask forms are checked against what their
// LLVM names mean (swap groups, reverse groups, broadcast a lane); FFT and rotate (numeric offsets:
// LLVM 19 has no names for them on gfx11) against the guide's pseudocode. An inactive source
// lane gives 0; inactive lanes keep their value.
TEST(EmuDpp, SwizzleModes) {
  struct Mode {
    std::string offset;
    std::function<unsigned(unsigned)> source;  // within the lane's group of 32
  };
  const std::vector<Mode> modes = {
      {"swizzle(QUAD_PERM,1,0,3,2)", [](unsigned i) { return i / 4 * 4 + std::array<unsigned, 4>{1, 0, 3, 2}[i % 4]; }},
      {"swizzle(QUAD_PERM,3,3,3,0)", [](unsigned i) { return i / 4 * 4 + std::array<unsigned, 4>{3, 3, 3, 0}[i % 4]; }},
      {"swizzle(BITMASK_PERM,\"01pip\")", [](unsigned i) { return 0x08 | (i & 0x4) | (~i & 0x2) | (i & 1); }},
      {"swizzle(SWAP,4)", [](unsigned i) { return i ^ 4; }},
      {"swizzle(SWAP,16)", [](unsigned i) { return i ^ 16; }},
      {"swizzle(REVERSE,8)", [](unsigned i) { return i / 8 * 8 + 7 - i % 8; }},
      {"swizzle(REVERSE,32)", [](unsigned i) { return 31 - i; }},
      {"swizzle(BROADCAST,8,3)", [](unsigned i) { return i / 8 * 8 + 3; }},
      {"swizzle(BROADCAST,32,15)", [](unsigned) { return 15u; }},
      {"0", [](unsigned) { return 0u; }},                                            // and_mask 0: lane 0
      {"0xe000", [](unsigned i) { return reverse5(i); }},                            // FFT, mask 0
      {"0xe003", [](unsigned i) { return (reverse5(i) >> 2) | (i & 3); }},           // FFT, mask 3
      {"0xc0a0", [](unsigned i) { return (i + 5) & 31; }},                           // rotate up by 5
      {"0xc463", [](unsigned i) { return (i & 3) | ((i - 3) & ~3u & 31); }},         // down by 3 outside mask 3
  };
  const u64 exec = 0xfffdffbf7feffffeull;
  for (bool wave64 : {false, true}) {
    const unsigned wave = wave64 ? 64 : 32;
    const u64 lanes = wave64 ? exec : exec & 0xffffffffu;
    AsmKernel k;
    k.wave64 = wave64;
    k.body = "  global_load_b32 v2, v1, s[4:5]\n  s_waitcnt vmcnt(0)\n";
    for (const auto& m : modes)
      k.body += std::string(kOldLine) + set_exec(lanes, wave64) + fmt::format("  ds_swizzle_b32 v3, v2 offset:{}\n  s_waitcnt lgkmcnt(0)\n", m.offset) +
                all_lanes(wave64) + "  global_store_b32 v1, v3, s[6:7]\n" + next_slice(wave);
    AsmLaunch l;
    l.threads = wave;
    l.in = lane_values(wave, 7000, 11);
    l.out_words = modes.size() * wave;
    RUN_ASM(r, k, l);
    for (std::size_t s = 0; s < modes.size(); ++s)
      for (unsigned lane = 0; lane < wave; ++lane) {
        const unsigned from = (lane & 32) | modes[s].source(lane & 31);
        const u32 expect = !bit(lanes, lane) ? kOld | lane : bit(lanes, from) ? l.in[from] : 0;
        EXPECT_EQ(r.out[s * wave + lane], expect) << modes[s].offset << " wave" << wave << " lane " << lane;
      }
  }
}

// ds_bpermute_b32 / ds_permute_b32: the lane is bits 6:2 of (address + offset), within the
// lane's own half of a wave64; an inactive source gives 0 (bpermute) or writes nothing (permute:
// an unwritten lane gets 0, the highest writer wins).
TEST(EmuDpp, BpermuteAndPermuteStayInTheirHalf) {
  const u64 exec = 0xff7fbfdfeffbfdfeull;
  for (bool wave64 : {false, true}) {
    const unsigned wave = wave64 ? 64 : 32;
    const u64 lanes = wave64 ? exec : exec & 0xffffffffu;
    AsmKernel k;
    k.wave64 = wave64;
    k.body = std::string("  global_load_b32 v2, v1, s[4:5]\n  global_load_b32 v5, v1, s[8:9]\n  s_waitcnt vmcnt(0)\n") + kOldLine + set_exec(lanes, wave64) +
             "  ds_bpermute_b32 v3, v5, v2 offset:8\n  s_waitcnt lgkmcnt(0)\n" + all_lanes(wave64) + "  global_store_b32 v1, v3, s[6:7]\n" +
             next_slice(wave) + kOldLine + set_exec(lanes, wave64) + "  ds_permute_b32 v3, v5, v2\n  s_waitcnt lgkmcnt(0)\n" + all_lanes(wave64) +
             "  global_store_b32 v1, v3, s[6:7]\n" +
             // The destination is the data: every lane reads the data before any lane's result
             // is written (all lanes active).
             next_slice(wave) + "  ds_bpermute_b32 v2, v5, v2 offset:8\n  s_waitcnt lgkmcnt(0)\n  global_store_b32 v1, v2, s[6:7]\n";
    AsmLaunch l;
    l.threads = wave;
    l.in = lane_values(wave, 300, 5);
    for (unsigned lane = 0; lane < wave; ++lane) l.aux.push_back(((lane * 13 + 7) % 64) * 4 + (lane % 3) + 0x100 * (lane % 5));  // high bits and low bits ignored
    l.out_words = 3 * wave;
    RUN_ASM(r, k, l);
    std::vector<u32> permuted(wave, 0);
    for (unsigned lane = 0; lane < wave; ++lane)
      if (bit(lanes, lane)) permuted[(lane & 32) | ((l.aux[lane] >> 2) & 31)] = l.in[lane];
    for (unsigned lane = 0; lane < wave; ++lane) {
      const unsigned from = (lane & 32) | (((l.aux[lane] + 8) >> 2) & 31);
      const u32 back = !bit(lanes, lane) ? kOld | lane : bit(lanes, from) ? l.in[from] : 0;
      EXPECT_EQ(r.out[lane], back) << "bpermute wave" << wave << " lane " << lane;
      EXPECT_EQ(r.out[wave + lane], bit(lanes, lane) ? permuted[lane] : kOld | lane) << "permute wave" << wave << " lane " << lane;
      EXPECT_EQ(r.out[2 * wave + lane], l.in[from]) << "bpermute onto its data, wave" << wave << " lane " << lane;
    }
  }
}

// v_movrels / v_movreld / v_movrelsd / v_movrelsd_2: M0 added to the register number.
TEST(EmuDpp, VgprIndexedMoves) {
  for (bool wave64 : {false, true}) {
    const unsigned wave = wave64 ? 64 : 32;
    AsmKernel k;
    k.wave64 = wave64;
    for (int reg = 10; reg < 30; ++reg) k.body += fmt::format("  v_add_nc_u32 v{}, {}, v0\n", reg, reg * 1000);  // v[reg] = reg * 1000 + lane
    k.body += "  s_mov_b32 m0, 3\n  v_movrels_b32 v3, v10\n  global_store_b32 v1, v3, s[6:7]\n" + next_slice(wave) +
              "  s_mov_b32 m0, 2\n  v_movreld_b32 v20, v0\n  global_store_b32 v1, v22, s[6:7]\n" + next_slice(wave) +
              "  s_mov_b32 m0, 1\n  v_movrelsd_b32 v10, v14\n  global_store_b32 v1, v11, s[6:7]\n" + next_slice(wave) +
              "  s_mov_b32 m0, 0x40003\n  v_movrelsd_2_b32 v20, v12\n  global_store_b32 v1, v24, s[6:7]\n";
    AsmLaunch l;
    l.threads = wave;
    l.out_words = 4 * wave;
    RUN_ASM(r, k, l);
    for (unsigned lane = 0; lane < wave; ++lane) {
      EXPECT_EQ(r.out[lane], 13000 + lane);             // v[10 + 3]
      EXPECT_EQ(r.out[wave + lane], lane);              // v[20 + 2] = v0
      EXPECT_EQ(r.out[2 * wave + lane], 15000 + lane);  // v[10 + 1] = v[14 + 1]
      EXPECT_EQ(r.out[3 * wave + lane], 15000 + lane);  // v[20 + 4] = v[12 + 3]
    }
  }
}

TEST(EmuDpp, AMovrelPastTheVgprsIsAFault) {
  AsmKernel k;
  k.body = "  s_mov_b32 m0, 5000\n  v_movrels_b32 v3, v10\n  global_store_b32 v1, v3, s[6:7]\n";
  AsmLaunch l;
  auto r = run_asm(k, l);
  if (!r.skip_reason.empty()) GTEST_SKIP() << r.skip_reason;
  EXPECT_NE(r.error.find("VGPR index"), std::string::npos) << r.error;
}

TEST(EmuDpp, DppTheEmulatorCannotHonourIsRefusedByName) {
  AsmKernel k;
  k.body = "  v_movrels_b32_dpp v3, v2 row_shr:1 row_mask:0xf bank_mask:0xf\n  global_store_b32 v1, v3, s[6:7]\n";
  AsmLaunch l;
  auto r = run_asm(k, l);
  if (!r.skip_reason.empty()) GTEST_SKIP() << r.skip_reason;
  EXPECT_NE(r.error.find("v_movrels_b32_dpp"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("DPP"), std::string::npos) << r.error;
}

}  // namespace
}  // namespace gpuport::emu::testing
