// The SASS semantics the lifter's first families use, called natively (semantics/*.cc compiled for
// the host): hand-checked values, carries, rounding modes, denormals, NaN.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "float_bits.h"
#include "lift/semantics/sass_float.h"
#include "lift/semantics/sass_half.h"
#include "lift/semantics/sass_integer.h"

namespace {

using gpuport::testing::bits;
using gpuport::testing::from_bits;

TEST(LiftIntegerSemantics, Iadd3CarriesAndNegation) {
  bool c0 = false, c1 = false;
  EXPECT_EQ(gpuport_sass_iadd3(0xffffffffu, false, 1, false, 0, false, false, false, &c0, &c1), 0u);
  EXPECT_TRUE(c0);
  EXPECT_FALSE(c1);
  // Three maximal operands carry twice.
  EXPECT_EQ(gpuport_sass_iadd3(0xffffffffu, false, 0xffffffffu, false, 0xffffffffu, false, false, false, &c0, &c1), 0xfffffffdu);
  EXPECT_TRUE(c0);
  EXPECT_TRUE(c1);
  // a - b as the adder sees it: a + ~b + 1; no borrow is a carry out.
  EXPECT_EQ(gpuport_sass_iadd3(5, false, 3, true, 0, false, false, false, &c0, &c1), 2u);
  EXPECT_TRUE(c0);
  EXPECT_EQ(gpuport_sass_iadd3(3, false, 5, true, 0, false, false, false, &c0, &c1), 0xfffffffeu);
  EXPECT_FALSE(c0);
  // -0 carries (0x100000000): a 64-bit subtract of 0 from the low word keeps the high word.
  EXPECT_EQ(gpuport_sass_iadd3(7, false, 0, true, 0, false, false, false, &c0, &c1), 7u);
  EXPECT_TRUE(c0);
  // The .X form: carries in.
  EXPECT_EQ(gpuport_sass_iadd3(1, false, 2, false, 0, false, true, true, &c0, &c1), 5u);
}

TEST(LiftIntegerSemantics, Sixty4BitSubtractThroughTwoIadd3) {
  const std::uint64_t a = 0x0000000100000000ull, b = 1;
  bool c0 = false, c1 = false, d0 = false, d1 = false;
  const std::uint32_t lo = gpuport_sass_iadd3(static_cast<std::uint32_t>(a), false, static_cast<std::uint32_t>(b), true, 0, false,
                                              false, false, &c0, &c1);
  // IADD3.X hi, a_hi, ~b_hi, RZ, P0, !PT
  const std::uint32_t hi = gpuport_sass_iadd3(static_cast<std::uint32_t>(a >> 32), false, ~static_cast<std::uint32_t>(b >> 32),
                                              false, 0, false, c0, false, &d0, &d1);
  EXPECT_EQ((static_cast<std::uint64_t>(hi) << 32) | lo, a - b);
}

TEST(LiftIntegerSemantics, ImadForms) {
  bool co = false;
  EXPECT_EQ(gpuport_sass_imad(3, 4, 5, false, false, &co), 17u);
  EXPECT_EQ(gpuport_sass_imad(3, 4, 5, true, false, &co), 7u);
  // IMAD.HI's addend is a 64-bit register pair: c = 2^32 adds 1 to the high word.
  EXPECT_EQ(gpuport_sass_imad_hi(0x80000000u, 4, 0x100000000ull, true, false, &co), 3u);
  EXPECT_EQ(gpuport_sass_imad_hi(0x80000000u, 4, 0, false, false, &co), 0xfffffffeu);  // signed: -2^31 * 4 = -2^33
  EXPECT_EQ(gpuport_sass_imad_wide(0xffffffffu, 4, 100, false), 96ull);                // -1 * 4 + 100
  EXPECT_EQ(gpuport_sass_imad_wide(0xffffffffu, 4, 100, true), 0x3fffffffcull + 100);
}

TEST(LiftIntegerSemantics, Lop3TruthTables) {
  EXPECT_EQ(gpuport_sass_lop3(0xf0f0f0f0u, 0xccccccccu, 0xaaaaaaaau, 0xc0), 0xf0f0f0f0u & 0xccccccccu);
  EXPECT_EQ(gpuport_sass_lop3(0xf0f0f0f0u, 0xccccccccu, 0xaaaaaaaau, 0x96), 0xf0f0f0f0u ^ 0xccccccccu ^ 0xaaaaaaaau);
  EXPECT_EQ(gpuport_sass_lop3(0x12345678u, 0, 0, 0x0f), ~0x12345678u);
  EXPECT_EQ(gpuport_sass_lop3(1, 2, 4, 0xfe), 7u);  // a | b | c
}

TEST(LiftIntegerSemantics, ComparesAndExtendedCompares) {
  EXPECT_TRUE(gpuport_sass_icmp(0xffffffffu, 1, 1, false));  // -1 < 1 signed
  EXPECT_FALSE(gpuport_sass_icmp(0xffffffffu, 1, 1, true));  // not unsigned
  // 64-bit a >= b: low words unsigned, high words signed with .EX.
  auto ge64 = [](std::int64_t a, std::int64_t b) {
    const bool lower = gpuport_sass_icmp(static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(b), 6, true);
    return gpuport_sass_icmp_ex(static_cast<std::uint32_t>(static_cast<std::uint64_t>(a) >> 32),
                                static_cast<std::uint32_t>(static_cast<std::uint64_t>(b) >> 32), 6, false, lower);
  };
  EXPECT_TRUE(ge64(5, 5));
  EXPECT_TRUE(ge64(0x100000000ll, 0xffffffffll));
  EXPECT_FALSE(ge64(-1, 0));
  EXPECT_TRUE(ge64(0, -0x100000000ll));
  EXPECT_TRUE(gpuport_sass_bool_op(true, false, 1));
  EXPECT_FALSE(gpuport_sass_bool_op(true, true, 2));
}

TEST(LiftIntegerSemantics, FunnelShifts) {
  // SHF.R.U32.HI d, RZ, 0x17, x = x >> 23; SHF.R.S32.HI d, RZ, 1, x = x >> 1 (arithmetic).
  EXPECT_EQ(gpuport_sass_shf(0, 23, 0x40400000u, false, false, 0, true), 0x80u);
  EXPECT_EQ(gpuport_sass_shf(0, 1, 0x80000000u, false, false, 1, true), 0xc0000000u);
  // SHF.L.U64.HI: the high word of a 64-bit shift left.
  EXPECT_EQ(gpuport_sass_shf(0x80000001u, 4, 0x1u, true, false, 2, true), 0x18u);
  // Clamp versus wrap for 32-bit kinds.
  EXPECT_EQ(gpuport_sass_shf(0x1u, 33, 0, true, false, 0, true), 1u);  // clamped to 32: lo moves into hi
  EXPECT_EQ(gpuport_sass_shf(0x1u, 33, 0, true, true, 0, false), 2u);  // wrapped to 1
}

TEST(LiftIntegerSemantics, LeaAndLeaHi) {
  bool co = false;
  EXPECT_EQ(gpuport_sass_lea(5, 100, 2, false, false, &co), 120u);
  // 64-bit address: lo = LEA (a << 2) + base_lo with carry; hi = LEA.HI.X of (a_hi:a << 2) >> 32 + base_hi + carry.
  const std::uint64_t index = 0x1'8000'0000ull, base = 0xffff'fff0ull;
  const std::uint32_t lo = gpuport_sass_lea(static_cast<std::uint32_t>(index), static_cast<std::uint32_t>(base), 2, false, false, &co);
  bool co2 = false;
  const std::uint32_t hi = gpuport_sass_lea_hi(static_cast<std::uint32_t>(index), static_cast<std::uint32_t>(base >> 32),
                                               static_cast<std::uint32_t>(index >> 32), 2, false, co, &co2);
  EXPECT_EQ((static_cast<std::uint64_t>(hi) << 32) | lo, (index << 2) + base);
  // LEA.HI d, x, x, RZ, 1: x + (x >> 31): rounding toward zero of a signed halving.
  EXPECT_EQ(gpuport_sass_lea_hi(0xfffffffbu, 0xfffffffbu, 0, 1, false, false, &co), 0xfffffffcu);
}

TEST(LiftIntegerSemantics, Permute) {
  EXPECT_EQ(gpuport_sass_prmt(0x33221100u, 0x5410, 0x77665544u, 0), 0x55441100u);
  EXPECT_EQ(gpuport_sass_prmt(0x000080ffu, 0x8880, 0, 0), 0xffffffffu);  // sign-replicated byte 0
  EXPECT_EQ(gpuport_sass_prmt(0x33221100u, 0x0123, 0x77665544u, 0), 0x00112233u);
}

TEST(LiftFloatSemantics, DirectedRounding) {
  const float third_rn = 1.0f / 3.0f;
  // 1 + 2^-24 * 1.5 is between 1 and 1 + 2^-23.
  const float a = 1.0f, b = 0x1.8p-24f;
  EXPECT_EQ(gpuport_sass_fadd(a, b, 0, false, false), 1.0f + 0x1p-23f);
  EXPECT_EQ(gpuport_sass_fadd(a, b, 3, false, false), 1.0f);
  EXPECT_EQ(gpuport_sass_fadd(a, b, 1, false, false), 1.0f);
  EXPECT_EQ(gpuport_sass_fadd(a, b, 2, false, false), 1.0f + 0x1p-23f);
  EXPECT_EQ(gpuport_sass_fadd(-a, -b, 3, false, false), -1.0f);
  EXPECT_EQ(gpuport_sass_fadd(-a, -b, 1, false, false), -1.0f - 0x1p-23f);
  // x - x is -0 rounding down, +0 otherwise.
  EXPECT_EQ(bits(gpuport_sass_fadd(1.5f, -1.5f, 1, false, false)), 0x80000000u);
  EXPECT_EQ(bits(gpuport_sass_fadd(1.5f, -1.5f, 0, false, false)), 0u);
  // Overflow: RZ keeps the largest finite.
  const float big = std::numeric_limits<float>::max();
  EXPECT_EQ(gpuport_sass_fadd(big, big, 3, false, false), big);
  EXPECT_TRUE(std::isinf(gpuport_sass_fadd(big, big, 0, false, false)));
  EXPECT_EQ(gpuport_sass_fmul(1.0f, third_rn, 3, false, false), third_rn);
  EXPECT_EQ(gpuport_sass_fmul(3.0f, third_rn, 3, false, false), 1.0f);  // 3 * RN(1/3) = 1 + 2^-25 exactly... rounds down to 1
  EXPECT_EQ(gpuport_sass_fmul(3.0f, third_rn, 2, false, false), 1.0f + 0x1p-23f);
  // FFMA.RZ: the exact a*b + c truncated.
  EXPECT_EQ(gpuport_sass_ffma(3.0f, third_rn, -1.0f, 0, false, false), 0x1p-25f);
  EXPECT_EQ(gpuport_sass_ffma(1.0f, 1.0f, 0x1.8p-24f, 3, false, false), 1.0f);
  EXPECT_EQ(gpuport_sass_ffma(1.0f, 1.0f, 0x1.8p-24f, 2, false, false), 1.0f + 0x1p-23f);
}

TEST(LiftFloatSemantics, FlushToZeroAndSaturate) {
  const float denormal = 0x1p-130f;
  EXPECT_EQ(gpuport_sass_fadd(denormal, 0.0f, 0, false, false), denormal);
  EXPECT_EQ(gpuport_sass_fadd(denormal, 0.0f, 0, true, false), 0.0f);
  EXPECT_EQ(bits(gpuport_sass_fmul(-denormal, 1.0f, 0, true, false)), 0x80000000u);
  EXPECT_EQ(gpuport_sass_fmul(0x1p-70f, 0x1p-70f, 0, false, false), 0x1p-140f);
  EXPECT_EQ(gpuport_sass_fmul(0x1p-70f, 0x1p-70f, 0, true, false), 0.0f);
  EXPECT_EQ(gpuport_sass_fadd(0.75f, 0.5f, 0, false, true), 1.0f);
  EXPECT_EQ(gpuport_sass_fadd(-0.75f, 0.5f, 0, false, true), 0.0f);
  EXPECT_EQ(gpuport_sass_fadd(std::nanf(""), 0.5f, 0, false, true), 0.0f);
}

TEST(LiftFloatSemantics, ComparesAndMinMax) {
  const float nan = std::nanf("");
  EXPECT_FALSE(gpuport_sass_fcmp(nan, 1.0f, 1, false));  // LT
  EXPECT_TRUE(gpuport_sass_fcmp(nan, 1.0f, 9, false));   // LTU
  EXPECT_TRUE(gpuport_sass_fcmp(nan, nan, 8, false));    // NAN
  EXPECT_TRUE(gpuport_sass_fcmp(std::numeric_limits<float>::infinity(), 1e38f, 12, false));  // GTU
  EXPECT_TRUE(gpuport_sass_fcmp(0x1p-130f, 0.0f, 2, true));   // equal once flushed
  EXPECT_FALSE(gpuport_sass_fcmp(0x1p-130f, 0.0f, 2, false));
  EXPECT_EQ(gpuport_sass_fmnmx(nan, 2.0f, true, false), 2.0f);
  EXPECT_EQ(gpuport_sass_fmnmx(3.0f, nan, false, false), 3.0f);
  EXPECT_EQ(bits(gpuport_sass_fmnmx(0.0f, -0.0f, true, false)), 0x80000000u);
  EXPECT_EQ(bits(gpuport_sass_fmnmx(-0.0f, 0.0f, false, false)), 0u);
  EXPECT_EQ(gpuport_sass_fmnmx(-1.0f, 2.0f, true, false), -1.0f);
}

TEST(LiftFloatSemantics, DivisionCheckIsConservative) {
  EXPECT_FALSE(gpuport_sass_fchk(6.0f, 3.0f));
  EXPECT_TRUE(gpuport_sass_fchk(1.0f, 0.0f));
  EXPECT_TRUE(gpuport_sass_fchk(1.0f, 0x1p-130f));
  EXPECT_TRUE(gpuport_sass_fchk(1e38f, 1e-38f));
  EXPECT_TRUE(gpuport_sass_fchk(std::nanf(""), 1.0f));
}

TEST(LiftHalfSemantics, ConversionsAndFma) {
  EXPECT_EQ(gpuport_sass_half_from_double(1.0), 0x3c00);
  EXPECT_EQ(gpuport_sass_half_from_double(5.9604644775390625e-08), 0x0001);  // the smallest denormal
  EXPECT_EQ(gpuport_sass_half_from_double(2.384185791015625e-07), 0x0004);
  EXPECT_EQ(gpuport_sass_half_from_double(65504.0), 0x7bff);
  EXPECT_EQ(gpuport_sass_half_from_double(65520.0), 0x7c00);  // rounds up to infinity
  EXPECT_EQ(gpuport_sass_half_from_double(-0.0), 0x8000);
  EXPECT_EQ(gpuport_sass_half_from_double(1.0 + 1.0 / 2048), 0x3c00);  // a tie: to even
  EXPECT_EQ(gpuport_sass_half_from_double(1.0 + 3.0 / 2048), 0x3c02);
  EXPECT_EQ(gpuport_sass_double_from_half(0x3555), 0.333251953125);
  EXPECT_EQ(gpuport_sass_double_from_half(0x0001), 5.9604644775390625e-08);
  // HFMA2.MMA d, -RZ, RZ, (0, 2^-22): the packed constant itself.
  EXPECT_EQ(gpuport_sass_hfma2(0x80008000u, 0, 0x00000004u, 0, false), 0x00000004u);
  EXPECT_EQ(gpuport_sass_hfma(0x3c00, 0x3c00, 0x3c00, 0, false), 0x4000);  // 1*1 + 1 = 2
  EXPECT_EQ(gpuport_sass_hfma(0x3c01, 0x3c01, 0x8000, 0, false), 0x3c02);  // (1+2^-10)^2 = 1 + 2^-9 + 2^-20 -> 1 + 2^-9
  EXPECT_EQ(gpuport_sass_hfma(0x3c01, 0x3c01, 0x8000, 3, false), 0x3c02);
  EXPECT_EQ(gpuport_sass_hfma(0x3c00, 0x3c00, 0x1001, 0, false), 0x3c01);  // 1 + 2^-11 * (1 + 2^-10): just above a tie, up
  EXPECT_EQ(gpuport_sass_hfma(0x3c00, 0x3c00, 0x1000, 0, false), 0x3c00);  // exactly a tie: to even
  EXPECT_EQ(gpuport_sass_hfma(0x3c00, 0x3c00, 0x1000, 3, false), 0x3c00);
  EXPECT_EQ(gpuport_sass_hfma(0x3c00, 0x3c00, 0xbc00, 0, true), 0x0000);  // 1 - 1 saturated
  EXPECT_EQ(gpuport_sass_hfma(0x4000, 0x4000, 0x0000, 0, true), 0x3c00);  // 4 saturated to 1
  (void)from_bits;
}

}  // namespace
