// Instruction-level tests on hand-written gfx1100 assembly (tests/unit/emu_asm.h): behaviour of
// the machine model itself — EXEC-masked writes, partial waves, carries — that clang-compiled
// kernels exercise only incidentally. Expected values are computed here from the ISA's
// definitions, lane by lane.
#include <gtest/gtest.h>

#include "emu_asm.h"

namespace gpuport::emu::testing {
namespace {

#define RUN_ASM(var, kernel, launch)                          \
  auto var = run_asm(kernel, launch);                         \
  if (!var.skip_reason.empty()) GTEST_SKIP() << var.skip_reason; \
  ASSERT_EQ(var.error, "")

TEST(EmuAsm, LanesOutsideExecKeepTheirValues) {
  AsmKernel k;
  // out[lane] = 7 everywhere, then 100 + lane only on even lanes (v_cmpx on the low bit).
  k.body = R"(
  v_mov_b32 v2, 7
  v_and_b32 v3, 1, v0
  v_cmpx_eq_u32 0, v3
  v_add_nc_u32 v2, 100, v0
  s_mov_b32 exec_lo, -1
  global_store_b32 v1, v2, s[6:7]
)";
  AsmLaunch l;
  l.threads = 32;
  RUN_ASM(r, k, l);
  for (unsigned lane = 0; lane < 32; ++lane) EXPECT_EQ(r.out[lane], lane % 2 ? 7u : 100 + lane) << lane;
}

TEST(EmuAsm, APartialWaveRunsOnlyItsLanes) {
  for (bool wave64 : {false, true}) {
    AsmKernel k;
    k.wave64 = wave64;
    // Every lane of the launch writes its id + 1; 40 threads: wave32 has a second wave of 8
    // lanes, wave64 one wave with 24 lanes off. Nothing past thread 39 may be written.
    k.body = R"(
  v_add_nc_u32 v2, 1, v0
  s_lshl_b32 s11, s2, 8
  v_add_nc_u32 v3, s11, v1
  global_store_b32 v3, v2, s[6:7]
)";
    AsmLaunch l;
    l.threads = 40;
    l.groups = 2;
    l.out_words = 128;
    RUN_ASM(r, k, l);
    for (unsigned g = 0; g < 2; ++g)
      for (unsigned t = 0; t < 64; ++t) EXPECT_EQ(r.out[g * 64 + t], t < 40 ? t + 1 : 0u) << "wave64 " << wave64 << " group " << g << " thread " << t;
  }
}

TEST(EmuAsm, SixtyFourBitAddCarriesThroughVcc) {
  AsmKernel k;
  // (in[lane] << 32 | 0xffffffff) + (lane + 1): the low word wraps and carries into the high.
  k.body = R"(
  global_load_b32 v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  v_add_nc_u32 v4, 1, v0
  v_add_co_u32 v5, vcc_lo, -1, v4
  v_add_co_ci_u32_e32 v6, vcc_lo, 0, v2, vcc_lo
  v_lshlrev_b32 v7, 3, v0
  global_store_b64 v7, v[5:6], s[6:7]
)";
  AsmLaunch l;
  for (unsigned lane = 0; lane < 32; ++lane) l.in.push_back(lane == 5 ? 0xffffffffu : lane * 0x01010101u);
  RUN_ASM(r, k, l);
  for (unsigned lane = 0; lane < 32; ++lane) {
    const std::uint64_t x = (static_cast<std::uint64_t>(l.in[lane]) << 32 | 0xffffffffu) + lane + 1;
    EXPECT_EQ(r.out[2 * lane], static_cast<std::uint32_t>(x)) << lane;
    EXPECT_EQ(r.out[2 * lane + 1], static_cast<std::uint32_t>(x >> 32)) << lane;
  }
}

}  // namespace
}  // namespace gpuport::emu::testing
