// Instruction-level tests on hand-written gfx1100 assembly (tests/unit/emu_asm.h): behaviour of
// the machine model itself — EXEC-masked writes, partial waves, carries — that clang-compiled
// kernels exercise only incidentally. Expected values are computed here from the ISA's
// definitions, lane by lane.
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>

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

}  // namespace
}  // namespace gpuport::emu::testing
