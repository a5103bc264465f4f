// Instruction-level tests on hand-written gfx1100 assembly (tests/unit/emu_asm.h): behaviour of
// the machine model itself — EXEC-masked writes, partial waves, carries — that clang-compiled
// kernels exercise only incidentally. Expected values are computed here from the ISA's
// definitions, lane by lane.
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <thread>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include "common/process.h"
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

TEST(EmuAsm, CallAndReturnByAddress) {
  AsmKernel k;
  // A subroutine after s_endpgm: s_call_b64 saves the return address, s_setpc_b64 returns; a
  // second call goes through s_getpc_b64 + offset + s_swappc_b64, as clang calls functions.
  k.body = R"(
  v_mov_b32 v2, 5
  s_call_b64 s[30:31], .Ltwice
  s_getpc_b64 s[12:13]
.Lhere:
  s_add_u32 s12, s12, .Ltwice-.Lhere
  s_addc_u32 s13, s13, 0
  s_swappc_b64 s[30:31], s[12:13]
  global_store_b32 v1, v2, s[6:7]
  s_endpgm
.Ltwice:
  v_add_nc_u32 v2, v2, v2
  s_setpc_b64 s[30:31]
)";
  AsmLaunch l;
  RUN_ASM(r, k, l);
  for (unsigned lane = 0; lane < 32; ++lane) EXPECT_EQ(r.out[lane], 20u) << lane;
}

TEST(EmuAsm, ModeRegisterReadsAndWrites) {
  AsmKernel k;
  k.float_denorm_32 = 3;
  k.float_denorm_16_64 = 3;
  // MODE as the descriptor set it (denormals kept, IEEE, DX10 clamp); then FP_DENORM cleared by
  // s_denorm_mode, FP_ROUND set by s_round_mode, two bits by s_setreg_imm32_b32; STATUS.SCC.
  k.body = R"(
  s_getreg_b32 s12, hwreg(HW_REG_MODE)
  s_denorm_mode 0
  s_round_mode 0x3
  s_getreg_b32 s13, hwreg(HW_REG_MODE, 0, 8)
  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 3
  s_getreg_b32 s14, hwreg(HW_REG_MODE, 0, 8)
  s_cmp_eq_u32 0, 0
  s_getreg_b32 s15, hwreg(HW_REG_STATUS, 0, 1)
  v_mov_b32 v2, s12
  v_mov_b32 v3, s13
  v_mov_b32 v4, s14
  v_mov_b32 v5, s15
  v_mov_b32 v6, 0
  global_store_b32 v6, v2, s[6:7]
  global_store_b32 v6, v3, s[6:7] offset:4
  global_store_b32 v6, v4, s[6:7] offset:8
  global_store_b32 v6, v5, s[6:7] offset:12
)";
  AsmLaunch l;
  l.threads = 1;
  RUN_ASM(r, k, l);
  EXPECT_EQ(r.out[0] & 0x3ffu, 0xf0u | 1u << 8 | 1u << 9);  // FP_DENORM 0xf, DX10_CLAMP, IEEE; round 0
  EXPECT_EQ(r.out[1], 0x03u);                              // denorm 0, round 3
  EXPECT_EQ(r.out[2], 0x33u);                              // f32 denormals back on
  EXPECT_EQ(r.out[3], 1u);
}

TEST(EmuAsm, SleepingWavesLetTheOtherWavesOfTheGroupRun) {
  for (bool sleeps : {true, false}) {
    AsmKernel k;
    k.lds_bytes = 16;
    // Wave 0 waits for a flag that wave 1 sets in LDS. The emulator runs one wave at a time: the
    // waiting wave must give way, at s_sleep or, without it, at the end of its time slice.
    k.body = std::string(R"(
  v_mov_b32 v6, 0
  v_cmp_gt_u32 vcc_lo, 32, v0
  s_cbranch_vccz .Lsetter
.Lwait:
  ds_load_b32 v2, v6
  s_waitcnt lgkmcnt(0)
  v_cmp_eq_u32 vcc_lo, 0, v2
)") + (sleeps ? "  s_sleep 1\n" : "") + R"(
  s_cbranch_vccnz .Lwait
  global_store_b32 v1, v2, s[6:7]
  s_endpgm
.Lsetter:
  v_mov_b32 v2, 77
  ds_store_b32 v6, v2
)";
    AsmLaunch l;
    l.threads = 64;
    RUN_ASM(r, k, l);
    for (unsigned lane = 0; lane < 32; ++lane) EXPECT_EQ(r.out[lane], 77u) << "s_sleep " << sleeps << " lane " << lane;
  }
}

TEST(EmuAsm, TrapStopsTheKernelNamingTheInstruction) {
  AsmKernel k;
  k.body = "  s_trap 2\n  global_store_b32 v1, v1, s[6:7]\n";
  AsmLaunch l;
  auto r = run_asm(k, l);
  if (!r.skip_reason.empty()) GTEST_SKIP() << r.skip_reason;
  EXPECT_NE(r.error.find("the kernel trapped (s_trap 2)"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("(s_trap 2) in workgroup (0, 0, 0), wave 0"), std::string::npos) << r.error;
  EXPECT_EQ(r.out[1], 0u);  // nothing after the trap ran
}

// MODE's float fields as the hardware applies them: FP_DENORM flushes denormal inputs and results
// of f32 (and, by the 16/64 field, f64) arithmetic and compares, FP_ROUND selects the rounding of
// the result; s_denorm_mode and s_round_mode change them while the kernel runs.
TEST(EmuAsm, FloatModesFlushDenormalsAndRound) {
  const float tiny = 0x1p-130f;             // an f32 denormal
  const float small = 0x1p-70f;             // its square is below the normal range
  const float one_plus = 1.0f, eps = 0x1p-30f;
  AsmKernel k;
  k.float_denorm_32 = 0;  // as -fgpu-flush-denormals-to-zero builds
  k.float_denorm_16_64 = 3;
  // in: tiny, small, 1.0, 2^-30, then the double 2^-1070 (a denormal).
  k.body = R"(
  v_mov_b32 v9, 0
  global_load_b128 v[2:5], v9, s[4:5]
  global_load_b64 v[10:11], v9, s[4:5] offset:16
  s_waitcnt vmcnt(0)
  v_add_f32 v20, 0, v2
  v_mul_f32 v21, v3, v3
  v_cmp_eq_f32 vcc_lo, 0, v2
  v_cndmask_b32 v22, 0, 1, vcc_lo
  v_add_f64 v[24:25], 0, v[10:11]
  s_denorm_mode 15
  v_add_f32 v23, 0, v2
  v_mul_f32 v26, v3, v3
  s_round_mode 0x3
  v_add_f32 v27, v4, v5
  s_round_mode 0x1
  v_add_f32 v28, v4, v5
  s_round_mode 0x0
  v_add_f32 v29, v4, v5
  global_store_b128 v9, v[20:23], s[6:7]
  global_store_b64 v9, v[24:25], s[6:7] offset:16
  global_store_b128 v9, v[26:29], s[6:7] offset:32
)";
  AsmLaunch l;
  l.threads = 1;
  auto word = [](float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
  };
  const double dtiny = 0x1p-1070;
  std::uint32_t d[2];
  std::memcpy(d, &dtiny, 8);
  l.in = {word(tiny), word(small), word(one_plus), word(eps), d[0], d[1]};
  RUN_ASM(r, k, l);
  EXPECT_EQ(r.out[0], 0u) << "a denormal input is flushed to +0";
  EXPECT_EQ(r.out[1], 0u) << "a denormal product is flushed to +0";
  EXPECT_EQ(r.out[2], 1u) << "a flushed denormal compares equal to zero";
  EXPECT_EQ(r.out[3], word(tiny)) << "s_denorm_mode 15 keeps f32 denormals";
  EXPECT_EQ(r.out[4], d[0]);
  EXPECT_EQ(r.out[5], d[1]) << "f64 denormals follow the 16/64 field, which keeps them";
  EXPECT_EQ(r.out[8], word(small * small)) << "with denormals kept, the product is the denormal";
  EXPECT_EQ(r.out[9], word(1.0f)) << "round toward zero drops 2^-30";
  EXPECT_EQ(r.out[10], word(std::nextafter(1.0f, 2.0f))) << "round toward +inf goes up one ulp";
  EXPECT_EQ(r.out[11], word(1.0f)) << "round to nearest even";
}

// Scalar bit operations and SGPR-relative moves, each against its definition computed here.
TEST(EmuAsm, ScalarBitOperationsAndRelativeMoves) {
  AsmKernel k;
  // s[12:13] = 0x00f0000f_80000001 and friends; results go to out[0..15] via v2.
  k.body = R"(
  s_mov_b32 s12, 0x80000001
  s_mov_b32 s13, 0x00f0000f
  s_bcnt0_i32_b64 s20, s[12:13]
  s_bitreplicate_b64_b32 s[22:23], 0x80000005
  s_mov_b32 s24, 0
  s_mov_b32 s25, -1
  s_cls_i32_i64 s26, s[24:25]
  s_mov_b32 s21, 0x9abcdef0
  s_pack_hl_b32_b16 s27, 0x12345678, s21
  s_quadmask_b64 s[28:29], s[12:13]
  s_wqm_b64 s[30:31], s[12:13]
  s_mov_b32 s40, 111
  s_mov_b32 s41, 222
  s_mov_b32 s42, 333
  s_mov_b32 m0, 2
  s_movrels_b32 s32, s40
  s_movreld_b32 s43, 444
  s_mov_b32 s33, s45
  v_mov_b32 v2, 0
  v_mov_b32 v3, s20
  global_store_b32 v2, v3, s[6:7]
  v_mov_b32 v3, s22
  global_store_b32 v2, v3, s[6:7] offset:4
  v_mov_b32 v3, s23
  global_store_b32 v2, v3, s[6:7] offset:8
  v_mov_b32 v3, s26
  global_store_b32 v2, v3, s[6:7] offset:12
  v_mov_b32 v3, s27
  global_store_b32 v2, v3, s[6:7] offset:16
  v_mov_b32 v3, s28
  global_store_b32 v2, v3, s[6:7] offset:20
  v_mov_b32 v3, s30
  global_store_b32 v2, v3, s[6:7] offset:24
  v_mov_b32 v3, s31
  global_store_b32 v2, v3, s[6:7] offset:28
  v_mov_b32 v3, s32
  global_store_b32 v2, v3, s[6:7] offset:32
  v_mov_b32 v3, s33
  global_store_b32 v2, v3, s[6:7] offset:36
)";
  AsmLaunch l;
  l.threads = 1;
  RUN_ASM(r, k, l);
  const std::uint64_t x = 0x00f0000f80000001ull;
  EXPECT_EQ(r.out[0], 64u - static_cast<unsigned>(__builtin_popcountll(x)));
  std::uint64_t rep = 0;
  for (int i = 0; i < 32; ++i)
    if ((0x80000005u >> i) & 1) rep |= 3ull << (2 * i);
  EXPECT_EQ(r.out[1], static_cast<std::uint32_t>(rep));
  EXPECT_EQ(r.out[2], static_cast<std::uint32_t>(rep >> 32));
  EXPECT_EQ(r.out[3], 32u);  // 0xffffffff00000000: 32 leading ones
  EXPECT_EQ(r.out[4], 0xdef01234u);  // {S1[15:0], S0[31:16]}
  std::uint32_t quads = 0;
  std::uint64_t wqm = 0;
  for (int q = 0; q < 16; ++q)
    if ((x >> (4 * q)) & 0xf) quads |= 1u << q, wqm |= 0xfull << (4 * q);
  EXPECT_EQ(r.out[5], quads);
  EXPECT_EQ(r.out[6], static_cast<std::uint32_t>(wqm));
  EXPECT_EQ(r.out[7], static_cast<std::uint32_t>(wqm >> 32));
  EXPECT_EQ(r.out[8], 333u) << "s_movrels s32, s40 with M0 = 2 reads s42";
  EXPECT_EQ(r.out[9], 444u) << "s_movreld s43, 444 with M0 = 2 writes s45";
}

// VALU forms beyond clang's usual output: signed adds that saturate under clamp, the 4-bit
// offset conversion, the swap, and the DX9 fma where 0 times anything is 0.
TEST(EmuAsm, SaturatingAddsSwapAndDx9Fma) {
  AsmKernel k;
  k.body = R"(
  global_load_b128 v[2:5], v1, s[4:5]
  s_waitcnt vmcnt(0)
  v_add_nc_i32 v6, v2, v3 clamp
  v_sub_nc_i32 v7, v2, v3 clamp
  v_add_nc_i32 v8, v2, v3
  v_cvt_off_f32_i4 v9, v4
  v_mov_b32 v10, v2
  v_mov_b32 v11, v3
  v_swap_b32 v10, v11
  v_fma_dx9_zero_f32 v12, v5, v4, 1.0
  v_lshlrev_b32 v13, 5, v0
  global_store_b128 v13, v[6:9], s[6:7]
  global_store_b96 v13, v[10:12], s[6:7] offset:16
)";
  AsmLaunch l;
  l.threads = 4;
  l.out_words = 32;
  const float inf = INFINITY;
  std::uint32_t inf_bits;
  std::memcpy(&inf_bits, &inf, 4);
  // lane: a, b, c (4-bit value / fma factor), d (fma factor)
  const std::uint32_t rows[4][4] = {{0x7ffffff0u, 0x100u, 7u, 0u},
                                    {0x80000010u, 0x100u, 8u, inf_bits},
                                    {5u, 0xfffffffbu, 15u, 0x40000000u},
                                    {0x80000000u, 1u, 0x12345673u, 0x3f800000u}};
  for (const auto& row : rows)
    for (std::uint32_t word : row) l.in.push_back(word);
  // The lane reads in[4*lane .. 4*lane+3]: the harness's v1 = 4*lane, so index by 16 bytes.
  k.body = "  v_lshlrev_b32 v1, 4, v0\n" + k.body;
  RUN_ASM(r, k, l);
  auto f = [](std::uint32_t u) {
    float x;
    std::memcpy(&x, &u, 4);
    return x;
  };
  auto bits = [](float x) {
    std::uint32_t u;
    std::memcpy(&u, &x, 4);
    return u;
  };
  for (int lane = 0; lane < 4; ++lane) {
    const std::int64_t a = static_cast<std::int32_t>(rows[lane][0]), b = static_cast<std::int32_t>(rows[lane][1]);
    auto sat = [](std::int64_t v) { return static_cast<std::uint32_t>(static_cast<std::int32_t>(std::clamp<std::int64_t>(v, INT32_MIN, INT32_MAX))); };
    const std::uint32_t* o = &r.out[8 * lane];
    EXPECT_EQ(o[0], sat(a + b)) << lane;
    EXPECT_EQ(o[1], sat(a - b)) << lane;
    EXPECT_EQ(o[2], static_cast<std::uint32_t>(a + b)) << lane;
    const int nibble = static_cast<int>(rows[lane][2] & 15);
    EXPECT_EQ(o[3], bits(static_cast<float>(nibble >= 8 ? nibble - 16 : nibble) / 16.0f)) << lane;
    EXPECT_EQ(o[4], rows[lane][1]) << lane;
    EXPECT_EQ(o[5], rows[lane][0]) << lane;
    const float p = f(rows[lane][3]), q = f(rows[lane][2]);
    EXPECT_EQ(o[6], bits((p == 0.0f || q == 0.0f) ? 1.0f : std::fma(p, q, 1.0f))) << lane;
  }
}

// DS forms with halves and the less common atomics, on LDS initialised from `in`.
TEST(EmuAsm, SharedMemoryHalvesAndAtomics) {
  AsmKernel k;
  k.lds_bytes = 64;
  // LDS words 0..7 = in[0..7] (one lane stores them); then one lane runs each operation.
  k.body = R"(
  v_cmp_eq_u32 vcc_lo, 0, v0
  s_and_saveexec_b32 s20, vcc_lo
  v_mov_b32 v2, 0
  global_load_b128 v[4:7], v2, s[4:5]
  global_load_b128 v[8:11], v2, s[4:5] offset:16
  s_waitcnt vmcnt(0)
  ds_store_b128 v2, v[4:7]
  ds_store_b128 v2, v[8:11] offset:16
  v_mov_b32 v12, 0xaaaabbbb
  ds_load_u8_d16 v12, v2 offset:1
  v_mov_b32 v13, 0xaaaabbbb
  ds_load_i8_d16_hi v13, v2 offset:3
  v_mov_b32 v14, 0xaaaabbbb
  ds_load_u16_d16_hi v14, v2 offset:4
  v_mov_b32 v15, 0x11223344
  ds_store_b16_d16_hi v2, v15 offset:32
  ds_store_b8_d16_hi v2, v15 offset:34
  v_mov_b32 v16, 10
  ds_rsub_rtn_u32 v17, v2, v16 offset:8
  v_mov_b32 v18, 0xff00
  v_mov_b32 v19, 0x5a
  ds_mskor_rtn_b32 v20, v2, v18, v19 offset:12
  v_mov_b32 v21, 100
  v_mov_b32 v22, 7
  ds_wrap_rtn_b32 v23, v2, v21, v22 offset:8
  s_waitcnt lgkmcnt(0)
  ds_load_b128 v[24:27], v2
  ds_load_b32 v28, v2 offset:32
  s_waitcnt lgkmcnt(0)
  global_store_b128 v2, v[12:15], s[6:7]
  global_store_b128 v2, v[16:19], s[6:7] offset:16
  global_store_b128 v2, v[20:23], s[6:7] offset:32
  global_store_b128 v2, v[24:27], s[6:7] offset:48
  global_store_b32 v2, v28, s[6:7] offset:64
)";
  AsmLaunch l;
  l.threads = 32;
  l.in = {0x80f2a1b3u, 0x76543210u, 0x00000003u, 0x0000ffffu, 0, 0, 0, 0};
  RUN_ASM(r, k, l);
  EXPECT_EQ(r.out[0], 0xaaaa00a1u) << "u8 into the low half, the high half kept";
  EXPECT_EQ(r.out[1], 0xff80bbbbu) << "i8 (0x80, sign-extended to 16 bits) into the high half";
  EXPECT_EQ(r.out[2], 0x3210bbbbu) << "u16 into the high half";
  EXPECT_EQ(r.out[5], 3u) << "ds_rsub returns the old value";
  EXPECT_EQ(r.out[8], 0x0000ffffu) << "ds_mskor returns the old value";
  EXPECT_EQ(r.out[11], 10u - 3u) << "ds_wrap returns the value rsub left";
  // word 2: rsub made 10 - 3 = 7, then wrap: 7 >= 100 ? ... : 7 + 7 = 14; word 3: (0xffff & ~0xff00) | 0x5a.
  EXPECT_EQ(r.out[14], 14u);
  EXPECT_EQ(r.out[15], 0x00ffu | 0x5au);
  EXPECT_EQ(r.out[16], 0x00221122u) << "bytes 32-33 from bits 31:16, byte 34 from bits 23:16";
}

// OMOD (mul:2 / div:2) applies only outside IEEE mode with output denormals flushed (ISA: "output
// modifiers are ignored if the IEEE mode bit is set", "not compatible with output denormals"),
// and then turns -0 into +0; CLAMP applies in every mode.
TEST(EmuAsm, OutputModifiersFollowTheFloatMode) {
  for (int ieee : {1, 0})
    for (unsigned denorm : {3u, 0u}) {
      AsmKernel k;
      k.ieee_mode = ieee;
      k.float_denorm_32 = denorm;
      k.body = R"(
  v_mov_b32 v2, 1.0
  v_mov_b32 v3, 0x80000000
  v_mov_b32 v4, 0
  v_add_f32_e64 v5, v2, v2 mul:2
  v_mul_f32_e64 v6, v3, v2 div:2
  v_add_f32_e64 v7, v2, v2 clamp
  global_store_b96 v4, v[5:7], s[6:7]
)";
      AsmLaunch l;
      l.threads = 1;
      RUN_ASM(r, k, l);
      const bool applies = !ieee && denorm == 0;
      EXPECT_EQ(r.out[0], applies ? 0x40800000u : 0x40000000u) << "ieee " << ieee << " denorm " << denorm;  // 4.0 or 2.0
      EXPECT_EQ(r.out[1], applies ? 0u : 0x80000000u) << "ieee " << ieee << " denorm " << denorm;           // +0 or -0
      EXPECT_EQ(r.out[2], 0x3f800000u) << "clamp: 2.0 -> 1.0";
    }
}

// v_trig_preop_f64 against LLVM's own constant folding of llvm.amdgcn.trig.preop (opt-19
// instcombine), over exponents small, large (the shift grows past 1077), huge (the 128 rescale at
// 1968), denormal, infinite and NaN, and every segment.
TEST(EmuAsm, TrigPreopMatchesLlvmConstantFolding) {
  const auto opt = find_program("opt-19");
  if (opt.empty()) GTEST_SKIP() << "needs opt-19 (llvm-19)";
  std::vector<double> xs = {1.0, -3.5, 1e22, 6.5e45, 1e300, -1.7e308, std::ldexp(1.0, 945), std::ldexp(1.0, 946),
                            std::ldexp(1.5, -1040), 0.0, INFINITY, NAN};
  std::vector<std::pair<double, unsigned>> cases;
  for (double x : xs)
    for (unsigned seg : {0u, 1u, 2u, 5u, 17u, 22u, 31u}) cases.emplace_back(x, seg);
  cases.resize(std::min<std::size_t>(cases.size(), 64));
  const auto ir_path = std::filesystem::temp_directory_path() / fmt::format("gpuport-trig-{}.ll", ::getpid());
  {
    std::ofstream ir(ir_path);
    ir << "declare double @llvm.amdgcn.trig.preop.f64(double, i32)\n";
    for (std::size_t i = 0; i < cases.size(); ++i) {
      std::uint64_t bits;
      std::memcpy(&bits, &cases[i].first, 8);
      ir << fmt::format("define double @f{}() {{\n  %r = call double @llvm.amdgcn.trig.preop.f64(double 0x{:016X}, i32 {})\n  ret double %r\n}}\n", i,
                        bits, cases[i].second);
    }
  }
  auto folded = run_process({opt.string(), "-S", "-passes=instcombine", "-mtriple=amdgcn-amd-amdhsa", ir_path.string()});
  std::filesystem::remove(ir_path);
  ASSERT_TRUE(folded.succeeded()) << folded.err;
  std::vector<std::uint64_t> expected;
  // LLVM prints a folded double in hex (0x<bits>) unless a short decimal is exact.
  const std::regex ret("ret double (\\S+)");
  for (std::sregex_iterator it(folded.out.begin(), folded.out.end(), ret), end; it != end; ++it) {
    const std::string v = (*it)[1].str();
    std::uint64_t bits = 0;
    if (v.starts_with("0x")) {
      bits = std::stoull(v.substr(2), nullptr, 16);
    } else {
      const double d = std::strtod(v.c_str(), nullptr);
      std::memcpy(&bits, &d, 8);
    }
    expected.push_back(bits);
  }
  ASSERT_EQ(expected.size(), cases.size()) << "opt-19 did not fold every call:\n" << folded.out;

  AsmKernel k;
  k.wave64 = true;
  // in: per lane the double x (2 words), then the segment numbers after 128 words.
  k.body = R"(
  v_lshlrev_b32 v2, 3, v0
  global_load_b64 v[4:5], v2, s[4:5]
  global_load_b32 v6, v1, s[4:5] offset:512
  s_waitcnt vmcnt(0)
  v_trig_preop_f64 v[8:9], v[4:5], v6
  global_store_b64 v2, v[8:9], s[6:7]
)";
  AsmLaunch l;
  l.threads = static_cast<std::uint32_t>(cases.size());
  l.in.assign(128 + 64, 0);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    std::memcpy(&l.in[2 * i], &cases[i].first, 8);
    l.in[128 + i] = cases[i].second;
  }
  l.out_words = 128;
  RUN_ASM(r, k, l);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const std::uint64_t got = r.out[2 * i] | static_cast<std::uint64_t>(r.out[2 * i + 1]) << 32;
    EXPECT_EQ(got, expected[i]) << "x = " << cases[i].first << " segment " << cases[i].second;
  }
}

// A kernel of one wave per launch, in wave32 and wave64, run with JitMode::hot from 65,536
// wave-instructions on (run_asm's three runs: interpreted, hot, compiled from the start).
void hot_loop_runs_alike(const std::string& body, unsigned lds_bytes, bool compile_helper) {
  for (bool wave64 : {false, true}) {
    AsmKernel k;
    k.wave64 = wave64;
    k.lds_bytes = lds_bytes;
    k.body = body;
    AsmLaunch l;
    l.threads = wave64 ? 64 : 32;
    l.jit_hot = 65536;
    l.compile_helper = compile_helper;
    RUN_ASM(r, k, l);
    EXPECT_NE(r.out[0], 0u);
    // One wave's few entry steps do not make the launch hot before it starts: part of it ran
    // interpreted, the rest compiled (unless the helper's compile outlasted the launch).
    if (!compile_helper) {
      EXPECT_GT(r.jit_stats.compiled_instructions, 0u);
    }
    EXPECT_LT(r.jit_stats.compiled_instructions, r.jit_stats.instructions);
  }
}

// v_cmp_class_f32 / v_cmpx_class_f32: bit i of the mask selects a class (0 signaling NaN, 1 quiet
// NaN, 2 -inf, 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf), whatever the
// float mode flushes (denormals are kept as a class with MODE set to flush them). Each lane
// classifies one value from `in` against every one-bit mask and stores the 10 results as bits;
// then v_cmpx_class with the lane's own mask (aux) leaves only the lanes whose value is of it.
TEST(EmuAsm, CompareClassSortsFloatsIntoTheirTenClasses) {
  const std::vector<std::uint32_t> values = {
      0x7f800001u, 0xffa00000u,  // signaling NaNs (top mantissa bit clear)
      0x7fc00000u, 0xffc00001u,  // quiet NaNs
      0xff800000u, 0xbf800000u, 0x80000001u, 0x807fffffu, 0x80000000u, 0x00000000u,
      0x00000001u, 0x007fffffu, 0x00800000u, 0x3f800000u, 0x7f7fffffu, 0x7f800000u};
  const std::uint32_t expected_class[] = {0, 0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 8, 8, 9};
  for (bool wave64 : {false, true}) {
    AsmKernel k;
    k.wave64 = wave64;
    k.float_denorm_32 = 0;  // flushing denormals must not change their class
    const char* mask = wave64 ? "vcc" : "vcc_lo";
    const char* exec = wave64 ? "exec" : "exec_lo";
    std::string body = R"(
  global_load_b32 v2, v1, s[4:5]
  global_load_b32 v6, v1, s[8:9]
  s_waitcnt vmcnt(0)
  v_mov_b32 v3, 0
)";
    for (int bit = 0; bit < 10; ++bit)
      body += fmt::format("  v_cmp_class_f32 {0}, v2, {1}\n  v_cndmask_b32 v4, 0, {1}, {0}\n  v_or_b32 v3, v3, v4\n", mask, 1 << bit);
    body += fmt::format("  v_mov_b32 v5, 0\n  v_cmpx_class_f32 v2, v6\n  v_mov_b32 v5, 1\n  s_mov_b{0} {1}, -1\n", wave64 ? 64 : 32, exec);
    body += "  v_lshl_or_b32 v3, v5, 16, v3\n  global_store_b32 v1, v3, s[6:7]\n";
    k.body = body;
    AsmLaunch l;
    l.threads = wave64 ? 64 : 32;
    l.in.resize(l.threads);
    l.aux.resize(l.threads);
    for (unsigned lane = 0; lane < l.threads; ++lane) {
      l.in[lane] = values[lane % values.size()];
      l.aux[lane] = lane % 3 == 0 ? 0x3ffu : lane % 3 == 1 ? 1u << expected_class[lane % values.size()] : 0x3ffu & ~(1u << expected_class[lane % values.size()]);
    }
    RUN_ASM(r, k, l);
    for (unsigned lane = 0; lane < l.threads; ++lane) {
      const std::uint32_t cls = expected_class[lane % values.size()];
      const std::uint32_t in_own = (l.aux[lane] >> cls) & 1;
      EXPECT_EQ(r.out[lane], (1u << cls) | in_own << 16) << "wave64 " << wave64 << " lane " << lane << " value " << fmt::format("{:#x}", l.in[lane]);
    }
  }
}

// JitMode::hot in the middle of a launch: one wave runs a loop of 300,000 iterations (a hash of
// its lane id and an LDS round trip each); the kernel is hot after 65,536 wave-instructions, is
// compiled at the wave's next look-up, and the wave goes on in the compiled code from the step it
// had reached; a later launch runs compiled from its start. Both must compute what the
// interpreter does, counts included.
// 64-bit integer compares (VOPC/VOP3 i64 and u64): each lane compares its pair from `in` with its
// pair from `aux`, with an SGPR pair and with the inline constant -1 (all 64 bits set); each
// result is a bit of the lane's word. Values where only the high or only the low word differs,
// and sign boundaries, tell signed from unsigned and a 64-bit compare from a 32-bit one.
TEST(EmuAsm, SixtyFourBitIntegerComparesReadBothWords) {
  const std::uint64_t values[] = {0, 1, ~0ull, 0x8000000000000000ull, 0x7fffffffffffffffull, 0x100000000ull, 0xffffffffull,
                                  0x80000000ull, 0x0000000500000001ull, 0x8000000500000000ull, 0x0000000400000009ull};
  const std::uint64_t sgpr_pair = 0x8000000000000005ull;
  for (bool wave64 : {false, true}) {
    AsmKernel k;
    k.wave64 = wave64;
    const char* vcc = wave64 ? "vcc" : "vcc_lo";
    std::string body = R"(
  v_lshlrev_b32 v7, 3, v0
  global_load_b64 v[2:3], v7, s[4:5]
  global_load_b64 v[4:5], v7, s[8:9]
  s_mov_b32 s12, 5
  s_mov_b32 s13, 0x80000000
  s_waitcnt vmcnt(0)
  v_mov_b32 v6, 0
)";
    const char* compares[] = {"lt_i64 {0}, v[2:3], v[4:5]", "lt_u64 {0}, v[2:3], v[4:5]", "gt_i64 {0}, v[2:3], v[4:5]",
                              "eq_u64 {0}, v[2:3], v[4:5]", "ge_i64 {0}, v[2:3], s[12:13]", "le_u64 {0}, s[12:13], v[2:3]",
                              "ne_i64 {0}, v[2:3], -1", "gt_u64 {0}, -1, v[4:5]"};
    for (int bit = 0; bit < 8; ++bit)
      body += "  v_cmp_" + fmt::format(fmt::runtime(compares[bit]), vcc) +
              fmt::format("\n  v_cndmask_b32 v8, 0, {1}, {0}\n  v_or_b32 v6, v6, v8\n", vcc, 1 << bit);
    // v_cmpx: the lanes where in < aux (unsigned) write 0x100 too.
    body += fmt::format("  v_cmpx_lt_u64_e64 v[2:3], v[4:5]\n  v_or_b32 v6, 0x100, v6\n  s_mov_b{} {}, -1\n", wave64 ? 64 : 32,
                        wave64 ? "exec" : "exec_lo");
    body += "  global_store_b32 v1, v6, s[6:7]\n";
    k.body = body;
    AsmLaunch l;
    l.threads = wave64 ? 64 : 32;
    const std::size_t n = std::size(values);
    for (unsigned lane = 0; lane < l.threads; ++lane) {
      const std::uint64_t x = values[lane % n], y = values[(lane * 7 + lane / n) % n];
      l.in.push_back(static_cast<std::uint32_t>(x));
      l.in.push_back(static_cast<std::uint32_t>(x >> 32));
      l.aux.push_back(static_cast<std::uint32_t>(y));
      l.aux.push_back(static_cast<std::uint32_t>(y >> 32));
    }
    RUN_ASM(r, k, l);
    for (unsigned lane = 0; lane < l.threads; ++lane) {
      const std::uint64_t x = values[lane % n], y = values[(lane * 7 + lane / n) % n];
      const auto sx = static_cast<std::int64_t>(x), sy = static_cast<std::int64_t>(y), ss = static_cast<std::int64_t>(sgpr_pair);
      const std::uint32_t expected = (sx < sy) | (x < y) << 1 | (sx > sy) << 2 | (x == y) << 3 | (sx >= ss) << 4 | (sgpr_pair <= x) << 5 |
                                     (sx != -1) << 6 | (~0ull > y) << 7 | (x < y) << 8;
      EXPECT_EQ(r.out[lane], expected) << "wave64 " << wave64 << " lane " << lane << fmt::format(" x {:#x} y {:#x}", x, y);
    }
  }
}

TEST(EmuAsm, AKernelCompiledMidLaunchComputesAlike) {
  hot_loop_runs_alike(R"(
  v_mov_b32 v2, v0
  s_mov_b32 s11, 300000
loop:
  v_mul_lo_u32 v2, v2, 0x9e3779b1
  v_xad_u32 v2, v2, v0, 0x7f4a7c15
  v_and_b32 v3, 63, v0
  v_lshlrev_b32 v3, 2, v3
  ds_store_b32 v3, v2
  s_waitcnt lgkmcnt(0)
  ds_load_b32 v4, v3
  s_waitcnt lgkmcnt(0)
  v_add_nc_u32 v2, v2, v4
  s_sub_u32 s11, s11, 1
  s_cmp_lg_u32 s11, 0
  s_cbranch_scc1 loop
  global_store_b32 v1, v2, s[6:7]
)",
                      256, false);
}

// JitMode::hot before a launch: its waves must run at least the kernel's entry steps (those before
// its first branch), and when those alone reach the threshold, the kernel is compiled before the
// first wave and the launch runs wholly in compiled code. (A STREAM kernel's million waves of
// 30 steps ran a tenth of its first launch interpreted before.)
TEST(EmuAsm, ALaunchSureToBeHotIsCompiledBeforeItsFirstWave) {
  std::string body = "  v_add_nc_u32 v2, 1, v0\n";
  for (int i = 0; i < 12; ++i) body += fmt::format("  v_mul_lo_u32 v2, v2, {:#x}\n  v_add_nc_u32 v2, v2, v0\n", 0x9e3779b1u + 2 * i);
  body += "  s_cmp_eq_u32 s2, 0\n  s_cbranch_scc0 .Lend\n  global_store_b32 v1, v2, s[6:7]\n.Lend:\n";
  for (bool wave64 : {false, true}) {
    AsmKernel k;
    k.wave64 = wave64;
    k.body = body;
    AsmLaunch l;
    l.groups = 64;
    l.threads = 256;
    l.out_words = 256;
    // 256 or 512 waves of more than 25 entry steps each: past 4,096.
    l.jit_hot = 4096;
    RUN_ASM(r, k, l);
    EXPECT_EQ(r.jit_stats.compiled_instructions, r.jit_stats.instructions) << "wave64 " << wave64;
    EXPECT_NE(r.out[0], 0u);
  }
}

// A fused run (ten lane steps here) runs whole in both tiers: a wave's turn, its look-ups and the
// --max-instructions budget end only at a step that is no run's interior. The loop is 11 steps
// (the run and the branch back); a budget of 25 falls inside the third run, which ends at 32.
TEST(EmuAsm, AWaveStopsOnlyBetweenFusedRuns) {
  std::string body = "loop:\n";
  for (int i = 0; i < 10; ++i) body += "  v_add_nc_u32 v2, 1, v2\n";
  body += "  s_branch loop\n";
  for (bool wave64 : {false, true}) {
    AsmKernel k;
    k.wave64 = wave64;
    k.prologue = false;
    k.body = body;
    AsmLaunch l;
    l.max_instructions = 25;
    const AsmRun r = run_asm(k, l);
    if (!r.skip_reason.empty()) GTEST_SKIP() << r.skip_reason;
    EXPECT_EQ(r.error.find("differs"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("the wave ran 32 instructions without finishing"), std::string::npos) << r.error;
  }
}

// A 16-byte load whose lanes' addresses are evenly spaced: 4 bytes apart (the sliding window of a
// convolution's unrolled row), 12 (strided), 16 (coalesced), 0 (one address for all) and -4
// (lanes in reverse). Lane l's four words are in[l * stride / 4 + k] (in[(31 - l) + k] reversed),
// in both tiers (the compiled code's vector loads per word, or its lanes one by one).
TEST(EmuAsm, EvenlySpacedLanesLoadTheirWordsAtAnyStride) {
  AsmKernel k;
  k.body = R"(
  v_mul_u32_u24 v20, 3, v1
  v_lshlrev_b32 v21, 2, v1
  v_mov_b32 v22, 0
  v_sub_nc_u32 v23, 124, v1
  global_load_b128 v[2:5], v1, s[4:5]
  global_load_b128 v[6:9], v20, s[4:5]
  global_load_b128 v[10:13], v21, s[4:5]
  global_load_b128 v[14:17], v22, s[4:5] offset:8
  global_load_b128 v[24:27], v23, s[4:5]
  s_waitcnt vmcnt(0)
)";
  const unsigned regs[] = {2, 6, 10, 14, 24};
  for (unsigned c = 0; c < 5; ++c)
    for (unsigned w = 0; w < 4; ++w) k.body += fmt::format("  global_store_b32 v1, v{}, s[6:7] offset:{}\n", regs[c] + w, (c * 4 + w) * 128);
  AsmLaunch l;
  for (std::uint32_t i = 0; i < 132; ++i) l.in.push_back(0x1000u + i * 7);
  l.out_words = 5 * 4 * 32;
  RUN_ASM(r, k, l);
  for (unsigned lane = 0; lane < 32; ++lane)
    for (unsigned w = 0; w < 4; ++w) {
      const unsigned first[] = {lane, 3 * lane, 4 * lane, 2, 31 - lane};
      for (unsigned c = 0; c < 5; ++c) EXPECT_EQ(r.out[(c * 4 + w) * 32 + lane], l.in[first[c] + w]) << "case " << c << " lane " << lane << " word " << w;
    }
}

// The same with the compile helper (gpuport jit-compile, as gpuport run starts it): the kernel is
// lifted at the look-up that finds it hot and compiled by the helper process while the wave goes
// on interpreting; the wave takes the code at a look-up after the helper is done (if the launch
// lasts that long), and a later launch runs the helper's code from its start, alike. (Padded to
// kJitHelperSteps: smaller kernels compile in the program.)
TEST(EmuAsm, AKernelCompiledByTheHelperComputesAlike) {
  const JitTotals before = jit_totals();
  std::string padding;
  for (std::size_t i = 0; i < kJitHelperSteps; ++i) padding += "  s_nop 0\n";
  hot_loop_runs_alike(R"(
  v_mov_b32 v2, v0
  s_mov_b32 s11, 400000
loop:
  v_mul_lo_u32 v2, v2, 0x85ebca6b
  v_xad_u32 v2, v2, v0, 0x27d4eb2f
  v_lshrrev_b32 v3, 13, v2
  v_xor_b32 v2, v2, v3
  s_sub_u32 s11, s11, 1
  s_cmp_lg_u32 s11, 0
  s_cbranch_scc1 loop
)" + padding + "  global_store_b32 v1, v2, s[6:7]\n",
                      0, true);
  EXPECT_EQ(jit_totals().background, before.background + 2);
}

// With a host thread on every core, the last takes no workgroup while the helper compiles (its
// core is the compile's); the first goes on, so the launch finishes, alike, whether the helper is
// done before its end or not.
TEST(EmuAsm, ThreadsOnEveryCoreLeaveOneToTheCompileHelper) {
  std::string padding;
  for (std::size_t i = 0; i < kJitHelperSteps; ++i) padding += "  s_nop 0\n";
  AsmKernel k;
  k.body = R"(
  v_mov_b32 v2, v0
  s_mov_b32 s11, 20000
loop:
  v_mul_lo_u32 v2, v2, 0x85ebca6b
  v_add_nc_u32 v2, v2, s2
  s_sub_u32 s11, s11, 1
  s_cmp_lg_u32 s11, 0
  s_cbranch_scc1 loop
)" + padding + "  s_lshl_b32 s12, s2, 7\n  v_add_nc_u32 v3, s12, v1\n  global_store_b32 v3, v2, s[6:7]\n";
  AsmLaunch l;
  l.groups = 16;
  l.out_words = 16 * 32;
  l.jobs = std::max(2u, std::thread::hardware_concurrency());
  l.jit_hot = 65536;
  l.compile_helper = true;
  RUN_ASM(r, k, l);
  for (unsigned g = 0; g < 16; ++g) EXPECT_NE(r.out[g * 32 + 1], 0u) << g;
}

}  // namespace
}  // namespace gpuport::emu::testing
