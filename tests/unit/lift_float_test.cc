// The float SASS semantics (semantics/sass_float.cc, sass_half.cc) called natively: hand-checked
// values for compares, min/max, FCHK, MUFU, FRND and the conversions (NaN, Inf, denormals, -0, ties,
// saturation), and the directed roundings (.RZ/.RM/.RP) of FADD/FMUL/FFMA, DADD/DMUL/DFMA, I2F and
// F2F checked against the host's FPU run in that rounding mode (fesetround), an independent truth.
#include <gtest/gtest.h>

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "float_bits.h"
#include "lift/semantics/sass_float.h"
#include "lift/semantics/sass_half.h"
#include "lift/semantics/sass_integer.h"

namespace {

using gpuport::testing::bits;
using gpuport::testing::from_bits;
using gpuport::testing::bits64;
using gpuport::testing::from_bits64;

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr double kInf64 = std::numeric_limits<double>::infinity();
const float kNan = std::nanf("");
const double kNan64 = std::nan("");
constexpr std::uint32_t kCanonicalNan = 0x7fffffffu;

// Comparison codes (sass_float.h).
enum Cmp : std::uint32_t { F, LT, EQ, LE, GT, NE, GE, NUM, NAN_, LTU, EQU, LEU, GTU, NEU, GEU, T };
// Rounding codes, integer kinds and float formats (sass_float.h).
constexpr std::uint32_t RN = 0, RM = 1, RP = 2, RZ = 3;
constexpr std::uint32_t S32 = 0, U32 = 1, S64 = 2, U64 = 3, S16 = 4, U16 = 5, S8 = 6, U8 = 7;
constexpr std::uint32_t F32 = 0, F64 = 1, F16 = 2, BF16 = 3;
constexpr std::uint32_t ROUND = 0, FLOOR = 1, CEIL = 2, TRUNC = 3;

TEST(LiftFloat, CompareEveryCodeOnOrderedAndUnordered) {
  struct Row {
    std::uint32_t cmp;
    bool less, equal, greater, unordered;
  };
  const Row rows[] = {{F, 0, 0, 0, 0},    {LT, 1, 0, 0, 0},   {EQ, 0, 1, 0, 0},   {LE, 1, 1, 0, 0},   {GT, 0, 0, 1, 0},
                      {NE, 1, 0, 1, 0},   {GE, 0, 1, 1, 0},   {NUM, 1, 1, 1, 0},  {NAN_, 0, 0, 0, 1}, {LTU, 1, 0, 0, 1},
                      {EQU, 0, 1, 0, 1},  {LEU, 1, 1, 0, 1}, {GTU, 0, 0, 1, 1}, {NEU, 1, 0, 1, 1}, {GEU, 0, 1, 1, 1},
                      {T, 1, 1, 1, 1}};
  for (const auto& r : rows) {
    SCOPED_TRACE(r.cmp);
    EXPECT_EQ(gpuport_sass_fcmp(1.0f, 2.0f, r.cmp, false), r.less);
    EXPECT_EQ(gpuport_sass_fcmp(-0.0f, 0.0f, r.cmp, false), r.equal);  // -0 == +0
    EXPECT_EQ(gpuport_sass_fcmp(kInf, 2.0f, r.cmp, false), r.greater);
    EXPECT_EQ(gpuport_sass_fcmp(kNan, 2.0f, r.cmp, false), r.unordered);
    EXPECT_EQ(gpuport_sass_fcmp(1.0f, kNan, r.cmp, false), r.unordered);
    EXPECT_EQ(gpuport_sass_dcmp(1.0, 2.0, r.cmp), r.less);
    EXPECT_EQ(gpuport_sass_dcmp(0.0, -0.0, r.cmp), r.equal);
    EXPECT_EQ(gpuport_sass_dcmp(-kInf64, -1e308, r.cmp), r.less);
    EXPECT_EQ(gpuport_sass_dcmp(kNan64, kNan64, r.cmp), r.unordered);
    EXPECT_EQ(gpuport_sass_dcmp(4.9e-324, 0.0, r.cmp), r.greater);  // f64 denormals always count
  }
  // .FTZ: denormals compare as zeros of their sign.
  EXPECT_TRUE(gpuport_sass_fcmp(0x1p-140f, -0x1p-130f, EQ, true));
  EXPECT_TRUE(gpuport_sass_fcmp(0x1p-140f, -0x1p-130f, GT, false));
  // FSETP's boolean combination (bool_op: AND 0, OR 1, XOR 2) with the second output !r.
  EXPECT_FALSE(gpuport_sass_bool_op(gpuport_sass_fcmp(1.0f, 2.0f, LT, false), false, 0));
  EXPECT_TRUE(gpuport_sass_bool_op(!gpuport_sass_fcmp(1.0f, 2.0f, GT, false), false, 1));
  EXPECT_FALSE(gpuport_sass_bool_op(gpuport_sass_fcmp(1.0f, 2.0f, LT, false), true, 2));
}

TEST(LiftFloat, MinMaxNanAndSignedZero) {
  // PTX min/max: one NaN gives the other operand, two the canonical NaN; -0 below +0.
  EXPECT_EQ(gpuport_sass_fmnmx(kNan, -3.0f, true, false), -3.0f);
  EXPECT_EQ(gpuport_sass_fmnmx(-3.0f, kNan, false, false), -3.0f);
  EXPECT_EQ(bits(gpuport_sass_fmnmx(kNan, -kNan, true, false)), kCanonicalNan);
  EXPECT_EQ(bits(gpuport_sass_fmnmx(0.0f, -0.0f, true, false)), 0x80000000u);
  EXPECT_EQ(bits(gpuport_sass_fmnmx(-0.0f, 0.0f, false, false)), 0u);
  EXPECT_EQ(gpuport_sass_fmnmx(-kInf, 5.0f, false, false), 5.0f);
  EXPECT_EQ(gpuport_sass_fmnmx(0x1p-140f, 0x1p-141f, false, false), 0x1p-140f);
  EXPECT_EQ(bits(gpuport_sass_fmnmx(0x1p-140f, -0x1p-141f, true, true)), 0x80000000u);  // both flushed: -0 < +0
  EXPECT_EQ(gpuport_sass_dmnmx(kNan64, 2.5, true), 2.5);
  EXPECT_EQ(gpuport_sass_dmnmx(2.5, kNan64, false), 2.5);
  EXPECT_TRUE(std::isnan(gpuport_sass_dmnmx(kNan64, kNan64, false)));
  EXPECT_EQ(bits64(gpuport_sass_dmnmx(0.0, -0.0, true)), 0x8000000000000000ull);
  EXPECT_EQ(bits64(gpuport_sass_dmnmx(-0.0, 0.0, false)), 0ull);
  EXPECT_EQ(gpuport_sass_dmnmx(-1e300, 4.9e-324, true), -1e300);
  // FMNMX.NAN (PTX max.NaN): any NaN operand gives the canonical NaN.
  EXPECT_EQ(bits(gpuport_sass_fmnmx_nan(kNan, -3.0f, true, false)), kCanonicalNan);
  EXPECT_EQ(bits(gpuport_sass_fmnmx_nan(1.0f, -kNan, false, false)), kCanonicalNan);
  EXPECT_EQ(gpuport_sass_fmnmx_nan(1.0f, -3.0f, false, false), 1.0f);
  EXPECT_EQ(bits(gpuport_sass_fmnmx_nan(0.0f, -0.0f, true, false)), 0x80000000u);
  // DSETP.MIN/.MAX p, q: p picks a, q flags two NaNs (nvcc then quiets b and takes it).
  bool both = true;
  EXPECT_TRUE(gpuport_sass_dsetp_minmax(1.0, 2.0, true, &both));
  EXPECT_FALSE(both);
  EXPECT_FALSE(gpuport_sass_dsetp_minmax(1.0, 2.0, false, &both));
  EXPECT_TRUE(gpuport_sass_dsetp_minmax(1.0, kNan64, false, &both));
  EXPECT_FALSE(gpuport_sass_dsetp_minmax(kNan64, 1.0, true, &both));
  EXPECT_FALSE(both);
  EXPECT_FALSE(gpuport_sass_dsetp_minmax(kNan64, kNan64, true, &both));
  EXPECT_TRUE(both);
  EXPECT_TRUE(gpuport_sass_dsetp_minmax(-0.0, 0.0, true, &both));
  EXPECT_FALSE(gpuport_sass_dsetp_minmax(-0.0, 0.0, false, &both));
}

TEST(LiftFloat, DivisionCheckTakesTheSlowPathWhereTheFastOneCanFail) {
  EXPECT_FALSE(gpuport_sass_fchk(6.0f, 3.0f));
  EXPECT_FALSE(gpuport_sass_fchk(-1e30f, 7e-3f));
  EXPECT_FALSE(gpuport_sass_fchk(1.0f, 0x1p124f));
  EXPECT_TRUE(gpuport_sass_fchk(1.0f, 0x1p126f));     // 1/b would be denormal
  EXPECT_TRUE(gpuport_sass_fchk(1.0f, 0.0f));
  EXPECT_TRUE(gpuport_sass_fchk(1.0f, 0x1p-130f));    // denormal divisor
  EXPECT_TRUE(gpuport_sass_fchk(1e38f, 1e-38f));      // overflowing quotient
  EXPECT_TRUE(gpuport_sass_fchk(1e-30f, 1e30f));      // denormal quotient
  EXPECT_TRUE(gpuport_sass_fchk(kNan, 1.0f));
  EXPECT_TRUE(gpuport_sass_fchk(1.0f, kInf));
  EXPECT_TRUE(gpuport_sass_fchk(0.0f, -3.0f));        // 0 / -3 is -0: the fast path would give +0
  EXPECT_TRUE(gpuport_sass_fchk(0x1p-110f, 3.0f));    // the residual would underflow
  // Where FCHK is false, nvcc's fast sequence gives the IEEE quotient (here with an exact
  // reciprocal seed, as the native hook gives).
  std::mt19937 random(7);
  std::uniform_real_distribution<float> mantissa(1.0f, 2.0f);
  std::uniform_int_distribution<int> exponent(-60, 60), any_exponent(-149, 127);
  int fast = 0;
  for (int i = 0; i < 200000; ++i) {
    // Half the cases in the middle of the range (all fast), half anywhere (near the limits).
    const bool anywhere = i % 2 != 0;
    const float a = std::ldexp(mantissa(random), anywhere ? any_exponent(random) : exponent(random)) * (i & 2 ? -1.0f : 1.0f);
    const float b = std::ldexp(mantissa(random), anywhere ? any_exponent(random) : exponent(random));
    if (!anywhere) {
      ASSERT_FALSE(gpuport_sass_fchk(a, b));
    }
    if (std::isinf(a) || std::isinf(b) || gpuport_sass_fchk(a, b)) continue;
    ++fast;
    // gfx1100's V_RCP_F32 is within 1 ulp: the sequence must also hold with a seed one ulp off.
    const float exact_seed = from_bits(gpuport_sass_mufu(bits(b), 4));
    for (const float r0 : {exact_seed, std::nextafter(exact_seed, 0.0f), std::nextafter(exact_seed, kInf)}) {
      const float e = gpuport_sass_ffma(-b, r0, 1.0f, RN, false, false);
      const float r = gpuport_sass_ffma(r0, e, r0, RN, false, false);
      const float q0 = gpuport_sass_ffma(a, r, 0.0f, RN, false, false);
      const float residual = gpuport_sass_ffma(-b, q0, a, RN, false, false);
      ASSERT_EQ(gpuport_sass_ffma(r, residual, q0, RN, false, false), a / b) << a << " / " << b;
    }
  }
  EXPECT_GT(fast, 120000);
}

TEST(LiftFloat, MufuFlushesDenormalsAndGivesCanonicalNan) {
  auto mufu = [](float x, std::uint32_t op) { return from_bits(gpuport_sass_mufu(bits(x), op)); };
  EXPECT_EQ(mufu(4.0f, 4), 0.25f);                      // RCP
  EXPECT_EQ(mufu(0x1p-130f, 4), kInf);                  // a denormal input is a zero
  EXPECT_EQ(mufu(-0x1p-130f, 4), -kInf);
  EXPECT_EQ(mufu(0x1p127f, 4), 0.0f);                   // 2^-127 would be denormal: flushed
  EXPECT_EQ(mufu(4.0f, 5), 0.5f);                       // RSQ
  EXPECT_EQ(bits(mufu(-4.0f, 5)), kCanonicalNan);
  EXPECT_EQ(mufu(16.0f, 8), 4.0f);                      // SQRT
  EXPECT_EQ(bits(mufu(-0x1p-130f, 8)), 0x80000000u);    // sqrt(-0) = -0
  EXPECT_EQ(mufu(3.0f, 2), 8.0f);                       // EX2
  EXPECT_EQ(mufu(-130.0f, 2), 0.0f);                    // 2^-130: flushed
  EXPECT_EQ(mufu(8.0f, 3), 3.0f);                       // LG2
  EXPECT_EQ(mufu(0x1p-140f, 3), -kInf);                 // log2 of a flushed denormal
  EXPECT_EQ(bits(mufu(-1.0f, 3)), kCanonicalNan);
  EXPECT_NEAR(mufu(0.25f, 1), 1.0f, 1e-6f);             // SIN of a quarter revolution
  EXPECT_NEAR(mufu(0.5f, 0), -1.0f, 1e-6f);             // COS of half a revolution
  EXPECT_NEAR(mufu(0.5f, 9), 0.46211715726f, 1e-6f);    // TANH
  EXPECT_EQ(mufu(0x1p-140f, 9), 0x1p-140f);            // TANH keeps denormals (tanh.approx.f32 is a bare MUFU.TANH)
  EXPECT_EQ(bits(mufu(kNan, 9)), kCanonicalNan);
  // The 64H forms: the high word of 1/x and 1/sqrt(x) for the double whose high word is given.
  EXPECT_EQ(gpuport_sass_mufu(0x40000000u, 6), 0x3fe00000u);  // 1/2
  EXPECT_EQ(gpuport_sass_mufu(0x40100000u, 7), 0x3fe00000u);  // 1/sqrt(4)
  EXPECT_EQ(gpuport_sass_mufu(0x00000000u, 6), 0x7ff00000u);  // 1/0
  EXPECT_EQ(gpuport_sass_mufu(0x40080000u, 6), static_cast<std::uint32_t>(bits64(1.0 / 3.0) >> 32));
}

TEST(LiftFloat, RoundToIntegralEveryMode) {
  EXPECT_EQ(gpuport_sass_frnd(2.5f, ROUND, false), 2.0f);  // ties to even
  EXPECT_EQ(gpuport_sass_frnd(3.5f, ROUND, false), 4.0f);
  EXPECT_EQ(bits(gpuport_sass_frnd(-0.5f, ROUND, false)), 0x80000000u);
  EXPECT_EQ(gpuport_sass_frnd(-0.5f, FLOOR, false), -1.0f);
  EXPECT_EQ(bits(gpuport_sass_frnd(-0.5f, CEIL, false)), 0x80000000u);  // -0
  EXPECT_EQ(bits(gpuport_sass_frnd(-0.7f, TRUNC, false)), 0x80000000u);
  EXPECT_EQ(gpuport_sass_frnd(0x1p-140f, CEIL, false), 1.0f);           // a denormal counts
  EXPECT_EQ(gpuport_sass_frnd(0x1p-140f, CEIL, true), 0.0f);            // unless flushed
  EXPECT_EQ(gpuport_sass_frnd(8388609.0f, FLOOR, false), 8388609.0f);   // already integral
  EXPECT_EQ(gpuport_sass_frnd(-kInf, TRUNC, false), -kInf);
  EXPECT_EQ(bits(gpuport_sass_frnd(kNan, FLOOR, false)), kCanonicalNan);
  EXPECT_EQ(gpuport_sass_frnd64(-2.5, ROUND), -2.0);
  EXPECT_EQ(gpuport_sass_frnd64(1e15 + 0.25, CEIL), 1e15 + 1);
  EXPECT_EQ(gpuport_sass_frnd64(-1e-310, FLOOR), -1.0);
  EXPECT_EQ(bits64(gpuport_sass_frnd64(-1e-310, CEIL)), 0x8000000000000000ull);
  EXPECT_EQ(gpuport_sass_frnd64(2.999999999, TRUNC), 2.0);
}

std::uint64_t f32(float x) { return bits(x); }

TEST(LiftFloat, FloatToIntegerSaturatesAndMapsNanToZero) {
  EXPECT_EQ(gpuport_sass_f2i(f32(2.5f), F32, S32, ROUND, false), 2u);
  EXPECT_EQ(gpuport_sass_f2i(f32(-2.5f), F32, S32, ROUND, false), 0xfffffffffffffffeull);
  EXPECT_EQ(gpuport_sass_f2i(f32(-0.5f), F32, S32, FLOOR, false), 0xffffffffffffffffull);
  EXPECT_EQ(gpuport_sass_f2i(f32(1.1f), F32, U32, CEIL, false), 2u);
  EXPECT_EQ(gpuport_sass_f2i(f32(kNan), F32, S32, TRUNC, false), 0u);
  EXPECT_EQ(gpuport_sass_f2i(f32(kNan), F32, U64, TRUNC, false), 0u);
  EXPECT_EQ(gpuport_sass_f2i(f32(kInf), F32, S32, TRUNC, false), 0x7fffffffu);
  EXPECT_EQ(gpuport_sass_f2i(f32(-kInf), F32, S32, TRUNC, false), 0xffffffff80000000ull);
  EXPECT_EQ(gpuport_sass_f2i(f32(3e9f), F32, S32, TRUNC, false), 0x7fffffffu);
  EXPECT_EQ(gpuport_sass_f2i(f32(3e9f), F32, U32, TRUNC, false), 3000000000u);
  EXPECT_EQ(gpuport_sass_f2i(f32(-1.0f), F32, U32, TRUNC, false), 0u);
  EXPECT_EQ(gpuport_sass_f2i(f32(5e9f), F32, U32, TRUNC, false), 0xffffffffu);
  EXPECT_EQ(gpuport_sass_f2i(f32(-0.9f), F32, U32, TRUNC, false), 0u);
  EXPECT_EQ(gpuport_sass_f2i(f32(-0x1p-140f), F32, S32, FLOOR, false), 0xffffffffffffffffull);  // -denormal floors to -1
  EXPECT_EQ(gpuport_sass_f2i(f32(-0x1p-140f), F32, S32, FLOOR, true), 0u);                      // flushed to -0 first
  EXPECT_EQ(gpuport_sass_f2i(f32(0x1p62f), F32, S64, TRUNC, false), 0x4000000000000000ull);
  EXPECT_EQ(gpuport_sass_f2i(f32(0x1p63f), F32, S64, TRUNC, false), 0x7fffffffffffffffull);
  EXPECT_EQ(gpuport_sass_f2i(f32(-0x1p63f), F32, S64, TRUNC, false), 0x8000000000000000ull);
  EXPECT_EQ(gpuport_sass_f2i(f32(0x1p63f), F32, U64, TRUNC, false), 0x8000000000000000ull);
  EXPECT_EQ(gpuport_sass_f2i(f32(0x1p64f), F32, U64, TRUNC, false), 0xffffffffffffffffull);
  EXPECT_EQ(gpuport_sass_f2i(bits64(-2147483648.9), F64, S32, TRUNC, false), 0xffffffff80000000ull);
  EXPECT_EQ(gpuport_sass_f2i(bits64(-2147483649.0), F64, S32, TRUNC, false), 0xffffffff80000000ull);
  EXPECT_EQ(gpuport_sass_f2i(bits64(4294967295.7), F64, U32, ROUND, false), 0xffffffffu);
  EXPECT_EQ(gpuport_sass_f2i(bits64(9007199254740993.0), F64, S64, TRUNC, false), 9007199254740992ull);
  EXPECT_EQ(gpuport_sass_f2i(bits64(kNan64), F64, S64, TRUNC, false), 0u);
  EXPECT_EQ(gpuport_sass_f2i(bits64(1e300), F64, U64, TRUNC, false), 0xffffffffffffffffull);
  EXPECT_EQ(gpuport_sass_f2i(f32(40000.0f), F32, S16, TRUNC, false), 0x7fffu);
  EXPECT_EQ(gpuport_sass_f2i(f32(-200.0f), F32, S8, TRUNC, false), 0xffffffffffffff80ull);
  EXPECT_EQ(gpuport_sass_f2i(f32(300.0f), F32, U8, TRUNC, false), 0xffu);
  EXPECT_EQ(gpuport_sass_f2i(0x4248, F16, S32, TRUNC, false), 3u);  // f16 3.140625
}

// 32-bit integers to f32 under a directed rounding take a short path (the nearest float, then a
// step); the 64-bit kinds take the general exact rounding. Both must agree on every value.
TEST(LiftFloat, DirectedIntegerToFloatAgreesWithExactRounding) {
  std::mt19937 random(2026);
  std::vector<std::uint32_t> values = {0u, 1u, 2u, 3u, 0x7fu, 0xffffffu, 0x1000000u, 0x1000001u, 0x1000003u, 0x7fffffbfu,
                                       0x7fffffc0u, 0x7fffffffu, 0x80000000u, 0x80000001u, 0xffffff7fu, 0xffffff80u, 0xffffffffu};
  for (int i = 0; i < 200000; ++i) values.push_back(static_cast<std::uint32_t>(random()) >> (random() % 32));
  for (std::uint32_t v : values) {
    for (std::uint32_t rounding : {RM, RP, RZ}) {
      ASSERT_EQ(gpuport_sass_i2f(v, U32, F32, rounding), gpuport_sass_i2f(v, U64, F32, rounding)) << v << " mode " << rounding;
      const std::uint64_t widened = static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<std::int32_t>(v)));
      ASSERT_EQ(gpuport_sass_i2f(v, S32, F32, rounding), gpuport_sass_i2f(widened, S64, F32, rounding)) << v << " mode " << rounding;
    }
  }
}

TEST(LiftFloat, IntegerToFloatRoundsEachMode) {
  auto to32 = [](std::uint64_t v, std::uint32_t kind, std::uint32_t rounding) {
    return from_bits(static_cast<std::uint32_t>(gpuport_sass_i2f(v, kind, F32, rounding)));
  };
  EXPECT_EQ(to32(0x7fffffff, S32, RN), 2147483648.0f);
  EXPECT_EQ(to32(0x7fffffff, S32, RZ), 2147483520.0f);
  EXPECT_EQ(to32(16777217, S32, RN), 16777216.0f);  // a tie: to even
  EXPECT_EQ(to32(16777219, S32, RN), 16777220.0f);  // a tie: to even (up)
  EXPECT_EQ(to32(16777217, S32, RP), 16777218.0f);
  EXPECT_EQ(to32(static_cast<std::uint32_t>(-16777217), S32, RM), -16777218.0f);
  EXPECT_EQ(to32(static_cast<std::uint32_t>(-16777217), S32, RP), -16777216.0f);
  EXPECT_EQ(to32(0xffffffff, U32, RN), 4294967296.0f);
  EXPECT_EQ(to32(0xffffffff, S32, RN), -1.0f);
  EXPECT_EQ(to32(0xffffffffffffffffull, U64, RN), 18446744073709551616.0f);
  EXPECT_EQ(to32(0x8000000000000000ull, S64, RN), -9223372036854775808.0f);
  EXPECT_EQ(to32(0x12348000, S16, RN), -32768.0f);  // the low 16 bits, sign-extended
  EXPECT_EQ(to32(0xffff, U16, RN), 65535.0f);
  EXPECT_EQ(to32(0x80, S8, RN), -128.0f);
  EXPECT_EQ(to32(0x1ff, U8, RN), 255.0f);
  EXPECT_EQ(bits(to32(0, S32, RM)), 0u);  // an integer zero is +0 in every mode
  EXPECT_EQ(from_bits64(gpuport_sass_i2f(9007199254740993ull, U64, F64, RN)), 9007199254740992.0);
  EXPECT_EQ(from_bits64(gpuport_sass_i2f(9007199254740993ull, U64, F64, RP)), 9007199254740994.0);
  EXPECT_EQ(from_bits64(gpuport_sass_i2f(0x80000000u, S32, F64, RN)), -2147483648.0);
  EXPECT_EQ(from_bits64(gpuport_sass_i2f(0x80000000u, U32, F64, RN)), 2147483648.0);
  // To f16 (I2F.F16, __int2half_rn): 2049 ties to 2048, 2051 to 2052; beyond 65519 overflows.
  EXPECT_EQ(gpuport_sass_i2f(2049, S32, F16, RN), 0x6800u);
  EXPECT_EQ(gpuport_sass_i2f(2051, S32, F16, RN), 0x6802u);
  EXPECT_EQ(gpuport_sass_i2f(2051, U32, F16, RZ), 0x6801u);
  EXPECT_EQ(gpuport_sass_i2f(static_cast<std::uint32_t>(-70000), S32, F16, RN), 0xfc00u);
  EXPECT_EQ(gpuport_sass_i2f(70000, U32, F16, RZ), 0x7bffu);
}

TEST(LiftFloat, FloatToFloatNanOverflowDenormals) {
  auto narrow = [](double x, std::uint32_t rounding, bool ftz = false) {
    return from_bits(static_cast<std::uint32_t>(gpuport_sass_f2f(bits64(x), F64, F32, rounding, ftz)));
  };
  EXPECT_EQ(narrow(1.0 / 3.0, RN), 1.0f / 3.0f);
  EXPECT_EQ(narrow(1.0 / 3.0, RZ), 0.333333313465118408203125f);
  EXPECT_EQ(narrow(1.0 / 3.0, RP), 0.3333333432674407958984375f);
  EXPECT_EQ(narrow(1e39, RN), kInf);
  EXPECT_EQ(narrow(1e39, RZ), std::numeric_limits<float>::max());
  EXPECT_EQ(narrow(-1e39, RP), -std::numeric_limits<float>::max());
  EXPECT_EQ(narrow(-1e39, RM), -kInf);
  EXPECT_EQ(narrow(1e-40, RN), 1e-40f);                     // a denormal result
  EXPECT_EQ(narrow(1e-40, RN, true), 0.0f);                 // flushed
  EXPECT_EQ(narrow(1e-50, RP), 0x1p-149f);                  // below every denormal: up to the smallest
  EXPECT_EQ(bits(narrow(-1e-50, RN)), 0x80000000u);
  EXPECT_EQ(bits(narrow(kNan64, RN)), kCanonicalNan);
  EXPECT_EQ(narrow(-kInf64, RZ), -kInf);
  EXPECT_EQ(from_bits64(gpuport_sass_f2f(f32(0x1p-149f), F32, F64, RN, false)), 0x1p-149);
  EXPECT_EQ(from_bits64(gpuport_sass_f2f(f32(0x1p-149f), F32, F64, RN, true)), 0.0);
  EXPECT_TRUE(std::isnan(from_bits64(gpuport_sass_f2f(f32(kNan), F32, F64, RN, false))));
  EXPECT_EQ(from_bits(static_cast<std::uint32_t>(gpuport_sass_f2f(0x3555, F16, F32, RN, false))), 0.333251953125f);
  EXPECT_EQ(from_bits(static_cast<std::uint32_t>(gpuport_sass_f2f(0x0001, F16, F32, RN, false))), 0x1p-24f);
  EXPECT_EQ(from_bits(static_cast<std::uint32_t>(gpuport_sass_f2f(0x3f81, BF16, F32, RN, false))), 1.0078125f);
}

TEST(LiftFloat, PackToHalfAndBfloat16) {
  EXPECT_EQ(gpuport_sass_f2fp_pack(1.0f, 2.0f, F16, RN), 0x3c004000u);  // a in the upper half
  EXPECT_EQ(gpuport_sass_f2fp_pack(65520.0f, 65519.0f, F16, RN), 0x7c007bffu);
  EXPECT_EQ(gpuport_sass_f2fp_pack(65520.0f, -1e6f, F16, RZ), 0x7bfffbffu);
  EXPECT_EQ(gpuport_sass_f2fp_pack(0x1p-25f, 0x1.8p-25f, F16, RN), 0x00000001u);  // tie to 0 (even); above the tie: up
  EXPECT_EQ(gpuport_sass_f2fp_pack(kNan, 0.0f, F16, RN), 0x7fff0000u);
  EXPECT_EQ(gpuport_sass_f2fp_pack(1.00390625f, 1.01171875f, BF16, RN), 0x3f803f82u);  // ties to even
  EXPECT_EQ(gpuport_sass_f2fp_pack(1.0078125f + 0x1p-20f, -1.0f, BF16, RZ), 0x3f81bf80u);
  EXPECT_EQ(gpuport_sass_f2fp_pack(0x1p-130f, 3e38f, BF16, RN), 0x00087f62u);  // bf16 keeps denormals; 3e38 = 1.7632 * 2^127 -> 1.765625
}

TEST(LiftFloat, DoublesRoundToNearestNatively) {
  EXPECT_EQ(gpuport_sass_dadd(0.1, 0.2, RN), 0.1 + 0.2);
  EXPECT_EQ(gpuport_sass_dmul(1e200, 1e200, RN), kInf64);
  EXPECT_EQ(gpuport_sass_dfma(0.1, 10.0, -1.0, RN), std::fma(0.1, 10.0, -1.0));
  EXPECT_EQ(gpuport_sass_dmul(0x1p-1000, 0x1p-70, RN), 0x1p-1070);  // denormal result kept
}

// Host references in a rounding mode. The operands and results go through volatile globals:
// fesetround could touch them, so the compiler cannot move the arithmetic across the mode switch
// (with locals it may, and does at -O2).
volatile double g_a, g_b, g_c, g_result;
volatile float g_x, g_y, g_z, g_fresult;
volatile std::int64_t g_n;

template <typename F>
void in_mode(std::uint32_t rounding, F f) {
  static const int modes[] = {FE_TONEAREST, FE_DOWNWARD, FE_UPWARD, FE_TOWARDZERO};
  std::fesetround(modes[rounding]);
  f();
  std::fesetround(FE_TONEAREST);
}

// Random operands with the interesting cases over-represented: exponents near the denormal range
// and overflow, exact cancellations, zeros.
struct Operands {
  std::mt19937_64 random{12345};
  double any64() {
    const int kind = static_cast<int>(random() % 8);
    double x = std::ldexp(1.0 + static_cast<double>(random() >> 12) * 0x1p-52, static_cast<int>(random() % 100) - 50);
    if (kind == 0) x = std::ldexp(x, -1000 - static_cast<int>(random() % 70));  // tiny and denormal
    if (kind == 1) x = std::ldexp(x, 960);                                       // near overflow
    if (kind == 2) x = static_cast<double>(static_cast<std::int64_t>(random() % 2000) - 1000);
    if (kind == 3) x = std::ldexp(static_cast<double>(random() >> 11), -static_cast<int>(random() % 1100));
    return random() & 1 ? -x : x;
  }
  float any32() {
    const int kind = static_cast<int>(random() % 6);
    float x = std::ldexp(1.0f + static_cast<float>(random() >> 41) * 0x1p-23f, static_cast<int>(random() % 60) - 30);
    if (kind == 0) x = std::ldexp(x, -110 - static_cast<int>(random() % 30));
    if (kind == 1) x = std::ldexp(x, 100);
    if (kind == 2) x = static_cast<float>(static_cast<int>(random() % 200) - 100);
    return random() & 1 ? -x : x;
  }
};

TEST(LiftFloat, DirectedRoundingMatchesTheHostFpu) {
  Operands ops;
  for (int i = 0; i < 200000; ++i) {
    const std::uint32_t rounding = static_cast<std::uint32_t>(i % 4);
    const double a = ops.any64(), b = ops.any64();
    double c = ops.any64();
    if (i % 5 == 0) c = -a * b;  // near-cancellation of the fma
    g_a = a;
    g_b = b;
    g_c = c;
    in_mode(rounding, [] { g_result = g_a + g_b; });
    const double sum = g_result;
    in_mode(rounding, [] { g_result = g_a * g_b; });
    const double product = g_result;
    in_mode(rounding, [] { g_result = std::fma(g_a, g_b, g_c); });
    const double fused = g_result;
    auto same = [](double x, double y) { return (std::isnan(x) && std::isnan(y)) || bits64(x) == bits64(y); };
    ASSERT_PRED2(same, gpuport_sass_dadd(a, b, rounding), sum) << a << " + " << b << " mode " << rounding;
    ASSERT_PRED2(same, gpuport_sass_dmul(a, b, rounding), product) << a << " * " << b << " mode " << rounding;
    ASSERT_PRED2(same, gpuport_sass_dfma(a, b, c, rounding), fused) << a << " * " << b << " + " << c << " mode " << rounding;
    // Conversions in the same mode.
    const std::int64_t n = static_cast<std::int64_t>(ops.random());
    g_n = n;
    in_mode(rounding, [] { g_fresult = static_cast<float>(g_n); });
    const float n32 = g_fresult;
    in_mode(rounding, [] { g_fresult = static_cast<float>(static_cast<std::uint64_t>(g_n)); });
    const float u32 = g_fresult;
    in_mode(rounding, [] { g_result = static_cast<double>(g_n); });
    const double n64 = g_result;
    in_mode(rounding, [] { g_fresult = static_cast<float>(g_a); });
    const float narrowed = g_fresult;
    ASSERT_EQ(static_cast<std::uint32_t>(gpuport_sass_i2f(static_cast<std::uint64_t>(n), S64, F32, rounding)), bits(n32)) << n;
    ASSERT_EQ(static_cast<std::uint32_t>(gpuport_sass_i2f(static_cast<std::uint64_t>(n), U64, F32, rounding)), bits(u32)) << n;
    ASSERT_EQ(gpuport_sass_i2f(static_cast<std::uint64_t>(n), S64, F64, rounding), bits64(n64)) << n;
    ASSERT_EQ(gpuport_sass_f2f(bits64(a), F64, F32, rounding, false), bits(narrowed)) << a << " mode " << rounding;
    // f32 arithmetic.
    const float x = ops.any32(), y = ops.any32(), z = i % 3 == 0 ? -x * y : ops.any32();
    g_x = x;
    g_y = y;
    g_z = z;
    in_mode(rounding, [] { g_fresult = g_x + g_y; });
    const float fsum = g_fresult;
    in_mode(rounding, [] { g_fresult = g_x * g_y; });
    const float fproduct = g_fresult;
    in_mode(rounding, [] { g_fresult = std::fma(static_cast<float>(g_x), static_cast<float>(g_y), static_cast<float>(g_z)); });
    const float ffused = g_fresult;
    // A NaN result is NVIDIA's canonical word, not the host's default NaN.
    auto expected = [](float r) { return std::isnan(r) ? kCanonicalNan : bits(r); };
    ASSERT_EQ(bits(gpuport_sass_fadd(x, y, rounding, false, false)), expected(fsum)) << x << " + " << y << " mode " << rounding;
    ASSERT_EQ(bits(gpuport_sass_fmul(x, y, rounding, false, false)), expected(fproduct)) << x << " * " << y << " mode " << rounding;
    ASSERT_EQ(bits(gpuport_sass_ffma(x, y, z, rounding, false, false)), expected(ffused)) << x << " * " << y << " + " << z;
  }
}

TEST(LiftFloat, DirectedDoubleEdgeCases) {
  // Exact zero sums: -0 only when rounding down.
  EXPECT_EQ(bits64(gpuport_sass_dadd(1.5, -1.5, RM)), 0x8000000000000000ull);
  EXPECT_EQ(bits64(gpuport_sass_dadd(1.5, -1.5, RZ)), 0ull);
  EXPECT_EQ(bits64(gpuport_sass_dfma(2.0, 3.0, -6.0, RM)), 0x8000000000000000ull);
  EXPECT_EQ(bits64(gpuport_sass_dfma(0.0, -3.0, 0.0, RP)), 0ull);
  EXPECT_EQ(bits64(gpuport_sass_dfma(0.0, -3.0, -0.0, RP)), 0x8000000000000000ull);
  // A product below every denormal: the smallest denormal when rounding away from zero.
  EXPECT_EQ(gpuport_sass_dmul(0x1p-600, 0x1p-600, RP), 0x1p-1074);
  EXPECT_EQ(gpuport_sass_dmul(0x1p-600, 0x1p-600, RZ), 0.0);
  EXPECT_EQ(gpuport_sass_dmul(-0x1p-600, 0x1p-600, RM), -0x1p-1074);
  // Overflow: the largest finite toward zero.
  EXPECT_EQ(gpuport_sass_dmul(1e300, 1e300, RZ), std::numeric_limits<double>::max());
  EXPECT_EQ(gpuport_sass_dadd(1.0, 0x1p-60, RP), 1.0 + 0x1p-52);
  EXPECT_EQ(gpuport_sass_dadd(1.0, -0x1p-60, RZ), 1.0 - 0x1p-53);
  // Special operands pass through.
  EXPECT_TRUE(std::isnan(gpuport_sass_dfma(kInf64, 0.0, 1.0, RZ)));
  EXPECT_EQ(gpuport_sass_dadd(kInf64, 1.0, RM), kInf64);
}

TEST(LiftHalf, PackedArithmeticBothFormats) {
  // HADD2 is hfma(a, 1, b), HMUL2 hfma(a, b, -0).
  EXPECT_EQ(gpuport_sass_hfma2_format(0x3c004000u, 0x3c003c00u, 0x3c00bc00u, F16, RN, false, false), 0x40003c00u);  // 1+1, 2-1
  EXPECT_EQ(gpuport_sass_hfma_format(0x8000, 0x3c00, 0x8000, F16, RN, false, false), 0x8000);  // -0 + -0
  EXPECT_EQ(gpuport_sass_hfma_format(0x0000, 0x3c00, 0x8000, F16, RN, false, false), 0x0000);  // +0 + -0
  EXPECT_EQ(gpuport_sass_hfma_format(0x3c00, 0x3c00, 0xbc00, F16, RM, false, false), 0x8000);  // 1 - 1 rounding down
  EXPECT_EQ(gpuport_sass_hfma_format(0x8001, 0x3c00, 0x8000, F16, RN, false, true), 0x8000);   // FTZ flushes the denormal
  EXPECT_EQ(gpuport_sass_hfma_format(0x0001, 0x3c00, 0x8000, F16, RN, false, false), 0x0001);
  EXPECT_EQ(gpuport_sass_hfma_format(0x7c00, 0x0000, 0x3c00, F16, RN, false, false), 0x7fff);  // Inf * 0: canonical NaN
  EXPECT_EQ(gpuport_sass_hfma_format(0x7bff, 0x4000, 0x8000, F16, RZ, false, false), 0x7bff);  // overflow toward zero
  EXPECT_EQ(gpuport_sass_hfma_format(0x7bff, 0x4000, 0x8000, F16, RN, false, false), 0x7c00);
  // bf16: 1.0078125 * 1.0078125 = 1.01568603515625 -> 1.015625 (0x3f82); + 2^-8 ties up to even.
  EXPECT_EQ(gpuport_sass_hfma_format(0x3f81, 0x3f81, 0x8000, BF16, RN, false, false), 0x3f82);
  EXPECT_EQ(gpuport_sass_hfma_format(0x3f80, 0x3f80, 0x3b80, BF16, RN, false, false), 0x3f80);  // 1 + 2^-8: tie to even
  EXPECT_EQ(gpuport_sass_hfma_format(0x3f80, 0x3f80, 0x3bc0, BF16, RN, false, false), 0x3f81);  // 1 + 1.5 * 2^-8: up
  EXPECT_EQ(gpuport_sass_hfma_format(0x4000, 0x3f80, 0x0000, BF16, RN, true, false), 0x3f80);   // 2 saturated
  EXPECT_EQ(gpuport_sass_hfma_format(0x0001, 0x3f80, 0x8000, BF16, RN, false, false), 0x0001);  // bf16 denormal kept
  // HFMA2.RELU: negative results and -0 clamp to +0, NaN to the canonical NaN.
  EXPECT_EQ(gpuport_sass_hfma2_relu(0x3c00c000u, 0x3c003c00u, 0x80008000u, F16, RN, false), 0x3c000000u);  // (1, -2) -> (1, 0)
  EXPECT_EQ(gpuport_sass_hfma2_relu(0x7c008000u, 0x00003c00u, 0x00008000u, F16, RN, false), 0x7fff0000u);  // (Inf*0, -0)
  EXPECT_EQ(gpuport_sass_hfma2_relu(0xbf803f80u, 0x3f803f80u, 0x00000000u, BF16, RN, false), 0x00003f80u);
  EXPECT_EQ(gpuport_sass_half_to_float(0x3f81, BF16, false), 1.0078125f);
  EXPECT_EQ(gpuport_sass_half_to_float(0x0001, F16, false), 0x1p-24f);
  EXPECT_EQ(bits(gpuport_sass_half_to_float(0x8001, F16, true)), 0x80000000u);
}

TEST(LiftHalf, ComparesAndMinMax) {
  EXPECT_TRUE(gpuport_sass_hcmp(0x3c00, 0x4000, F16, LT, false));
  EXPECT_FALSE(gpuport_sass_hcmp(0x7e00, 0x4000, F16, GE, false));
  EXPECT_TRUE(gpuport_sass_hcmp(0x7e00, 0x4000, F16, GEU, false));
  EXPECT_TRUE(gpuport_sass_hcmp(0x7e00, 0x7e00, F16, NAN_, false));
  EXPECT_TRUE(gpuport_sass_hcmp(0x8000, 0x0000, F16, EQ, false));
  EXPECT_TRUE(gpuport_sass_hcmp(0x0001, 0x0000, F16, GT, false));
  EXPECT_FALSE(gpuport_sass_hcmp(0x0001, 0x0000, F16, GT, true));
  EXPECT_TRUE(gpuport_sass_hcmp(0x3f81, 0x3f80, BF16, GT, false));
  EXPECT_TRUE(gpuport_sass_hcmp(0x7fc0, 0x3f80, BF16, NE + 8, false));  // NEU
  EXPECT_EQ(gpuport_sass_hmnmx(0x7e00, 0xc000, F16, true, false), 0xc000);
  EXPECT_EQ(gpuport_sass_hmnmx(0xc000, 0x7e00, F16, false, false), 0xc000);
  EXPECT_EQ(gpuport_sass_hmnmx(0x7e00, 0xfe00, F16, false, false), 0x7fff);
  EXPECT_EQ(gpuport_sass_hmnmx(0x0000, 0x8000, F16, true, false), 0x8000);
  EXPECT_EQ(gpuport_sass_hmnmx(0x8000, 0x0000, F16, false, false), 0x0000);
  EXPECT_EQ(gpuport_sass_hmnmx(0x3c00, 0x4000, F16, false, false), 0x4000);
  EXPECT_EQ(gpuport_sass_hmnmx(0xbf80, 0x3f80, BF16, true, false), 0xbf80);
  EXPECT_EQ(gpuport_sass_hmnmx_nan(0x7e01, 0xc000, F16, true, false), 0x7fff);  // .NAN: NaN wins
  EXPECT_EQ(gpuport_sass_hmnmx_nan(0x3c00, 0x4000, F16, true, false), 0x3c00);
  EXPECT_EQ(gpuport_sass_hmnmx_nan(0x3f80, 0xffc0, BF16, false, false), 0x7fff);
}

}  // namespace
