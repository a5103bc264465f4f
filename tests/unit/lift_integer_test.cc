// The integer family's semantics (semantics/sass_integer.cc) called natively with hand-checked
// values: shift counts at and past the word size, 64-bit funnel shifts, carries in and out, sign
// extension, truth tables, every PRMT mode, predicate-file bytes; and the lifter's refusals of
// forms it does not model (lifted from SASS text, the findings checked).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "lift/kernel_info.h"
#include "lift/lower.h"
#include "lift/sass_lift.h"
#include "lift/semantics/sass_integer.h"
#include "sass/parser.h"

namespace {

// ---- SHF --------------------------------------------------------------------------------------
// shf(lo, shift, hi, left, wrap, kind 0 U32 / 1 S32 / 2 U64 / 3 S64, hi_result)

TEST(LiftIntegerShf, ThirtyTwoBitShiftsClampOrWrap) {
  // SHF.L.U32 d, a, n, RZ: a << n, 0 from n = 32 on (clamped), a << (n & 31) with .W.
  EXPECT_EQ(gpuport_sass_shf(0x80000001u, 1, 0, true, false, 0, false), 0x00000002u);
  EXPECT_EQ(gpuport_sass_shf(0x80000001u, 31, 0, true, false, 0, false), 0x80000000u);
  EXPECT_EQ(gpuport_sass_shf(0x80000001u, 32, 0, true, false, 0, false), 0u);
  EXPECT_EQ(gpuport_sass_shf(0x80000001u, 0xffffffffu, 0, true, false, 0, false), 0u);
  EXPECT_EQ(gpuport_sass_shf(0x80000001u, 33, 0, true, true, 0, false), 0x00000002u);
  // SHF.R.U32.HI d, RZ, n, a: a >> n, 0 from 32 on.
  EXPECT_EQ(gpuport_sass_shf(0, 4, 0xf0000000u, false, false, 0, true), 0x0f000000u);
  EXPECT_EQ(gpuport_sass_shf(0, 32, 0xf0000000u, false, false, 0, true), 0u);
  EXPECT_EQ(gpuport_sass_shf(0, 36, 0xf0000000u, false, true, 0, true), 0x0f000000u);
  // SHF.R.S32.HI d, RZ, n, a: the sign fills; n = 31, 32 and beyond all give the sign.
  EXPECT_EQ(gpuport_sass_shf(0, 4, 0x80000000u, false, false, 1, true), 0xf8000000u);
  EXPECT_EQ(gpuport_sass_shf(0, 31, 0x80000000u, false, false, 1, true), 0xffffffffu);
  EXPECT_EQ(gpuport_sass_shf(0, 32, 0x80000000u, false, false, 1, true), 0xffffffffu);
  EXPECT_EQ(gpuport_sass_shf(0, 100, 0x7fffffffu, false, false, 1, true), 0u);
  // .W.S32: (int)a >> (n & 31).
  EXPECT_EQ(gpuport_sass_shf(0, 33, 0x80000000u, false, true, 1, true), 0xc0000000u);
}

TEST(LiftIntegerShf, FunnelShiftsAndRotates) {
  // SHF.L.W.U32.HI d, x, n, x: rotate left.
  EXPECT_EQ(gpuport_sass_shf(0x12345678u, 8, 0x12345678u, true, true, 0, true), 0x34567812u);
  EXPECT_EQ(gpuport_sass_shf(0x12345678u, 40, 0x12345678u, true, true, 0, true), 0x34567812u);
  // SHF.R.W.U32 d, x, n, x: rotate right.
  EXPECT_EQ(gpuport_sass_shf(0x12345678u, 4, 0x12345678u, false, true, 0, false), 0x81234567u);
  // __funnelshift_lc/rc: the count clamps at 32, where the other word comes through whole.
  EXPECT_EQ(gpuport_sass_shf(0xaaaaaaaau, 32, 0x55555555u, true, false, 0, true), 0xaaaaaaaau);
  EXPECT_EQ(gpuport_sass_shf(0xaaaaaaaau, 32, 0x55555555u, false, false, 0, false), 0x55555555u);
  EXPECT_EQ(gpuport_sass_shf(0xaaaaaaaau, 0, 0x55555555u, false, false, 0, false), 0xaaaaaaaau);
}

TEST(LiftIntegerShf, SixtyFourBitShifts) {
  const std::uint64_t v = 0x0123456789abcdefull;
  const std::uint32_t lo = static_cast<std::uint32_t>(v), hi = static_cast<std::uint32_t>(v >> 32);
  for (std::uint32_t n : {0u, 1u, 31u, 32u, 33u, 40u, 63u}) {
    SCOPED_TRACE(n);
    // x << n: SHF.L.U64.HI gives the high word, SHF.L.U32 the low one.
    EXPECT_EQ(gpuport_sass_shf(lo, n, hi, true, false, 2, true), static_cast<std::uint32_t>((v << n) >> 32));
    EXPECT_EQ(gpuport_sass_shf(lo, n, 0, true, false, 0, false), static_cast<std::uint32_t>(v << n));
    // x >> n: SHF.R.U64 the low word, SHF.R.U32.HI the high one.
    EXPECT_EQ(gpuport_sass_shf(lo, n, hi, false, false, 2, false), static_cast<std::uint32_t>(v >> n));
    EXPECT_EQ(gpuport_sass_shf(0, n, hi, false, false, 0, true), static_cast<std::uint32_t>(v >> n >> 32));
  }
  // SHF.R.S64 / SHF.R.S32.HI on a negative 64-bit value: -2^63 >> 40 = -2^23.
  EXPECT_EQ(gpuport_sass_shf(0, 40, 0x80000000u, false, false, 3, false), 0xff800000u);
  EXPECT_EQ(gpuport_sass_shf(0, 40, 0x80000000u, false, false, 1, true), 0xffffffffu);
  // Counts of 64 and more clamp (U64: all bits out), with .W they wrap modulo 64.
  EXPECT_EQ(gpuport_sass_shf(lo, 64, hi, false, false, 2, false), 0u);
  EXPECT_EQ(gpuport_sass_shf(lo, 64, hi, false, false, 3, false), 0u);  // positive: 0
  EXPECT_EQ(gpuport_sass_shf(lo, 68, hi, false, true, 2, false), 0x789abcdeu);
}

// ---- LOP3, PLOP3 ------------------------------------------------------------------------------

TEST(LiftIntegerLogic, Lop3TablesAndPredicateOutput) {
  const std::uint32_t a = 0xf0f0f0f0u, b = 0xccccccccu, c = 0xaaaaaaaau;
  // With the canonical operands, the result is the table itself in every byte.
  for (std::uint32_t lut : {0x00u, 0x3cu, 0x96u, 0xc0u, 0xe8u, 0xf8u, 0xfcu, 0xffu})
    EXPECT_EQ(gpuport_sass_lop3(a, b, c, lut), lut * 0x01010101u) << lut;
  // 0xc8: b & (a | c), the test nvcc uses for "a double is not +-0" on its two words.
  EXPECT_EQ(gpuport_sass_lop3(0x80000000u, 0x7fffffffu, 0, 0xc8), 0u);
  EXPECT_EQ(gpuport_sass_lop3(0x80000000u, 0x7fffffffu, 1, 0xc8), 1u);
  // The predicate output: nonzero, or the predicate input (chained over a 64-bit value's words).
  EXPECT_FALSE(gpuport_sass_lop3_nonzero(0, false));
  EXPECT_TRUE(gpuport_sass_lop3_nonzero(0x100, false));
  EXPECT_TRUE(gpuport_sass_lop3_nonzero(0, true));
}

TEST(LiftIntegerLogic, Plop3TruthTables) {
  // a is the table index's high bit, as in LOP3: 0x80 = a & b & c, 0x08 = !a & b & c.
  EXPECT_TRUE(gpuport_sass_plop3(true, true, true, 0x80));
  EXPECT_FALSE(gpuport_sass_plop3(true, true, true, 0x08));
  EXPECT_TRUE(gpuport_sass_plop3(false, true, true, 0x08));
  // With c = PT: 0xa8 is a | b, 0x2a is !(a & b), 0x82 is a == b (the forms nvcc emits).
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 2; ++b) {
      EXPECT_EQ(gpuport_sass_plop3(a, b, true, 0xa8), a || b);
      EXPECT_EQ(gpuport_sass_plop3(a, b, true, 0x2a), !(a && b));
      EXPECT_EQ(gpuport_sass_plop3(a, b, true, 0x82), a == b);
    }
  // 0xe0: a & (b | c).
  EXPECT_TRUE(gpuport_sass_plop3(true, false, true, 0xe0));
  EXPECT_FALSE(gpuport_sass_plop3(false, true, true, 0xe0));
  EXPECT_FALSE(gpuport_sass_plop3(true, false, false, 0xe0));
}

// ---- LEA ----------------------------------------------------------------------------------------

TEST(LiftIntegerLea, ScaledAddsWithCarries) {
  bool co = false;
  EXPECT_EQ(gpuport_sass_lea(3, 0x100, 4, false, false, &co), 0x130u);
  EXPECT_FALSE(co);
  // The low word's sum carries into LEA.HI.X; the bits shifted out of a go there through LEA.HI.
  EXPECT_EQ(gpuport_sass_lea(0x40000001u, 0xfffffffcu, 2, false, false, &co), 0u);
  EXPECT_TRUE(co);
  EXPECT_EQ(gpuport_sass_lea(0x40000000u, 0xfffffff0u, 2, false, false, &co), 0xfffffff0u);
  EXPECT_FALSE(co);
  EXPECT_EQ(gpuport_sass_lea(0, 0xffffffffu, 0, false, true, &co), 0u);  // + carry in
  EXPECT_TRUE(co);
  // LEA d, -a, RZ, 5: -(a << 5).
  EXPECT_EQ(gpuport_sass_lea(3, 0, 5, true, false, &co), 0xffffffa0u);
  // LEA.HI d, a, b, hi, s: b + ((hi:a) << s) >> 32.
  EXPECT_EQ(gpuport_sass_lea_hi(0x80000000u, 10, 0, 1, false, false, &co), 11u);
  EXPECT_EQ(gpuport_sass_lea_hi(0xc0000000u, 10, 0x1u, 4, false, false, &co), 10u + 0x1cu);
  // x + (x >> 31) for signed division by two: LEA.HI d, x, x, RZ, 1.
  EXPECT_EQ(gpuport_sass_lea_hi(0xfffffffbu, 0xfffffffbu, 0, 1, false, false, &co), 0xfffffffcu);
  // LEA.HI.X.SX32 (hi = a's sign): a 64-bit base plus a negative int index * 4.
  const std::int64_t base = 0x0000000500000010ll;
  const std::int32_t index = -8;
  const std::uint32_t a = static_cast<std::uint32_t>(index);
  bool c0 = false;
  const std::uint32_t lo = gpuport_sass_lea(a, static_cast<std::uint32_t>(base), 2, false, false, &c0);
  const std::uint32_t hi = gpuport_sass_lea_hi(a, static_cast<std::uint32_t>(base >> 32), 0xffffffffu, 2, false, c0, &co);
  EXPECT_EQ((static_cast<std::uint64_t>(hi) << 32) | lo, static_cast<std::uint64_t>(base + index * 4));
}

// ---- IMAD.HI / IMAD.WIDE with carries -------------------------------------------------------------

TEST(LiftIntegerImad, HighWordsAndSixtyFourBitCarries) {
  bool co = false;
  // IMAD.HI's addend is a 64-bit pair: its low word carries into the high word.
  EXPECT_EQ(gpuport_sass_imad_hi(0xffffffffu, 0xffffffffu, 0, true, false, &co), 0xfffffffeu);
  EXPECT_EQ(gpuport_sass_imad_hi(0xffffffffu, 0xffffffffu, 0xffffffffull, true, false, &co), 0xffffffffu);
  EXPECT_FALSE(co);
  EXPECT_EQ(gpuport_sass_imad_hi(0xffffffffu, 0xffffffffu, 0xffffffff00000000ull, true, false, &co), 0xfffffffdu);
  EXPECT_TRUE(co);
  // Signed: -1 * 1 = -1, high word all ones; plus 5 << 32.
  EXPECT_EQ(gpuport_sass_imad_hi(0xffffffffu, 1, 0, false, false, &co), 0xffffffffu);
  EXPECT_EQ(gpuport_sass_imad_hi(0xffffffffu, 1, 5ull << 32, false, false, &co), 4u);
  // IMAD.WIDE.U32 with a carry out of bit 64 and .X with a carry in.
  EXPECT_EQ(gpuport_sass_imad_wide_carry(0xffffffffu, 0xffffffffu, 0x1ffffffffull, true, false, &co), 0ull);
  EXPECT_TRUE(co);
  EXPECT_EQ(gpuport_sass_imad_wide_carry(2, 3, 10, true, true, &co), 17ull);
  EXPECT_FALSE(co);
  EXPECT_EQ(gpuport_sass_imad_wide_carry(0, 0, ~0ull, true, true, &co), 0ull);
  EXPECT_TRUE(co);
  // The high word of a 64x64 product from 32x32->64 pieces: x = y = 2^64 - 1 -> 2^64 - 2 (the
  // partial sums stay below 2^64: no carry out).
  const std::uint32_t ones = 0xffffffffu;
  bool c1 = true, c2 = true;
  const std::uint64_t ll = gpuport_sass_imad_wide(ones, ones, 0, true);
  const std::uint64_t mid1 = gpuport_sass_imad_wide_carry(ones, ones, ll >> 32, true, false, &c1);
  const std::uint64_t mid2 = gpuport_sass_imad_wide_carry(ones, ones, mid1 & 0xffffffffu, true, false, &c2);
  EXPECT_FALSE(c1);
  EXPECT_FALSE(c2);
  EXPECT_EQ(gpuport_sass_imad_wide(ones, ones, (mid1 >> 32) + (mid2 >> 32), true), 0xfffffffffffffffeull);
}

// nvcc 11.8's 64-bit unsigned division (__cuda_sm20_div_u64, sm_80), its integer instructions
// transcribed one for one onto the semantic functions: a float reciprocal seeds two Newton steps
// built from IMAD.WIDE.U32 / IMAD.HI.U32 with carries chained through IMAD.X and IADD3.X, then
// two corrections. Exact quotients for every divisor check the carry semantics as the compiler
// relies on them. The float seed (I2F.U64.RP, MUFU.RCP, F2I.U64.TRUNC) is computed on the host.
std::uint64_t divide_as_nvcc(std::uint64_t n, std::uint64_t d) {
  std::uint32_t R[32] = {};
  bool P[7] = {};
  bool unused0 = false, unused1 = false;
  auto pair = [&](int r) { return (static_cast<std::uint64_t>(R[r + 1]) << 32) | R[r]; };
  auto set_pair = [&](int r, std::uint64_t v) { R[r] = static_cast<std::uint32_t>(v), R[r + 1] = static_cast<std::uint32_t>(v >> 32); };
  auto iadd3 = [&](std::uint32_t a, bool na, std::uint32_t b, bool nb, std::uint32_t c, bool ci0, bool ci1, bool* co) {
    return gpuport_sass_iadd3(a, na, b, nb, c, false, ci0, ci1, co != nullptr ? co : &unused0, &unused1);
  };
  R[4] = static_cast<std::uint32_t>(n), R[5] = static_cast<std::uint32_t>(n >> 32);
  R[6] = static_cast<std::uint32_t>(d), R[7] = static_cast<std::uint32_t>(d >> 32);
  // I2F.U64.RP R9, R6; MUFU.RCP R9, R9; IADD3 R10, R9, 0x1ffffffe, RZ; F2I.U64.TRUNC R10, R10
  float f = static_cast<float>(d);
  if (static_cast<std::uint64_t>(f) < d && f < 1.8e19f) f = std::nextafter(f, 2e19f);  // rounded up
  const float rcp = 1.0f / f;
  std::uint32_t bits;
  std::memcpy(&bits, &rcp, 4);
  bits += 0x1ffffffe;
  float seed;
  std::memcpy(&seed, &bits, 4);
  set_pair(10, seed >= 1.8446744e19f ? ~0ull : static_cast<std::uint64_t>(seed));
  set_pair(12, gpuport_sass_imad_wide(R[10], R[6], 0, true));                 // IMAD.WIDE.U32 R12, R10, R6, RZ
  R[13] = gpuport_sass_imad(R[10], R[7], R[13], false, false, &unused0);       // IMAD R13, R10, R7, R13
  R[15] = iadd3(0, false, R[12], true, 0, false, false, &P[0]);                // IADD3 R15, P0, RZ, -R12, RZ
  R[13] = gpuport_sass_imad(R[11], R[6], R[13], false, false, &unused0);       // IMAD R13, R11, R6, R13
  R[12] = gpuport_sass_imad_hi(R[10], R[15], 0, true, false, &unused0);        // IMAD.HI.U32 R12, R10, R15, RZ
  R[17] = gpuport_sass_imad(0, 0, ~R[13], false, P[0], &unused0);              // IMAD.X R17, RZ, RZ, ~R13, P0
  R[13] = R[10];                                                               // IMAD.MOV.U32 R13, RZ, RZ, R10
  R[19] = gpuport_sass_imad(R[11], R[17], 0, false, false, &unused0);          // IMAD R19, R11, R17, RZ
  set_pair(12, gpuport_sass_imad_wide_carry(R[10], R[17], pair(12), true, false, &P[0]));  // IMAD.WIDE.U32 R12, P0, R10, R17, R12
  R[9] = gpuport_sass_imad_hi(R[11], R[17], 0, true, false, &unused0);         // IMAD.HI.U32 R9, R11, R17, RZ
  R[12] = gpuport_sass_imad_hi(R[11], R[15], pair(12), true, false, &P[1]);    // IMAD.HI.U32 R12, P1, R11, R15, R12
  R[9] = gpuport_sass_imad(R[9], 1, R[11], false, P[0], &unused0);             // IMAD.X R9, R9, 0x1, R11, P0
  R[13] = iadd3(R[19], false, R[12], false, 0, false, false, &P[2]);           // IADD3 R13, P2, R19, R12, RZ
  R[9] = iadd3(0, false, 0, false, R[9], P[2], P[1], nullptr);                 // IADD3.X R9, RZ, RZ, R9, P2, P1
  set_pair(10, gpuport_sass_imad_wide(R[13], R[6], 0, true));                 // IMAD.WIDE.U32 R10, R13, R6, RZ
  R[11] = gpuport_sass_imad(R[13], R[7], R[11], false, false, &unused0);       // IMAD R11, R13, R7, R11
  R[15] = iadd3(0, false, R[10], true, 0, false, false, &P[0]);                // IADD3 R15, P0, RZ, -R10, RZ
  R[11] = gpuport_sass_imad(R[9], R[6], R[11], false, false, &unused0);        // IMAD R11, R9, R6, R11
  R[12] = gpuport_sass_imad_hi(R[13], R[15], 0, true, false, &unused0);        // IMAD.HI.U32 R12, R13, R15, RZ
  R[10] = gpuport_sass_imad(0, 0, ~R[11], false, P[0], &unused0);              // IMAD.X R10, RZ, RZ, ~R11, P0
  R[11] = 0;                                                                   // IMAD.MOV.U32 R11, RZ, RZ, RZ
  set_pair(12, gpuport_sass_imad_wide_carry(R[13], R[10], pair(12), true, false, &P[0]));  // IMAD.WIDE.U32 R12, P0, R13, R10, R12
  R[14] = gpuport_sass_imad(R[9], R[10], 0, false, false, &unused0);           // IMAD R14, R9, R10, RZ
  R[13] = gpuport_sass_imad_hi(R[9], R[15], pair(12), true, false, &P[1]);     // IMAD.HI.U32 R13, P1, R9, R15, R12
  R[10] = gpuport_sass_imad_hi(R[9], R[10], 0, true, false, &unused0);         // IMAD.HI.U32 R10, R9, R10, RZ
  R[13] = iadd3(R[14], false, R[13], false, 0, false, false, &P[2]);           // IADD3 R13, P2, R14, R13, RZ
  R[9] = gpuport_sass_imad(R[10], 1, R[9], false, P[0], &unused0);             // IMAD.X R9, R10, 0x1, R9, P0
  R[10] = gpuport_sass_imad_hi(R[13], R[4], 0, true, false, &unused0);         // IMAD.HI.U32 R10, R13, R4, RZ
  R[9] = iadd3(0, false, 0, false, R[9], P[2], P[1], nullptr);                 // IADD3.X R9, RZ, RZ, R9, P2, P1
  set_pair(10, gpuport_sass_imad_wide(R[13], R[5], pair(10), true));          // IMAD.WIDE.U32 R10, R13, R5, R10
  R[13] = gpuport_sass_imad(R[9], R[5], 0, false, false, &unused0);            // IMAD R13, R9, R5, RZ
  R[10] = gpuport_sass_imad_hi(R[9], R[4], pair(10), true, false, &P[0]);      // IMAD.HI.U32 R10, P0, R9, R4, R10
  R[9] = gpuport_sass_imad_hi(R[9], R[5], 0, true, false, &unused0);           // IMAD.HI.U32 R9, R9, R5, RZ
  R[13] = iadd3(R[13], false, R[10], false, 0, false, false, &P[1]);           // IADD3 R13, P1, R13, R10, RZ
  R[9] = gpuport_sass_imad(0, 0, R[9], false, P[0], &unused0);                 // IMAD.X R9, RZ, RZ, R9, P0
  set_pair(10, gpuport_sass_imad_wide(R[13], R[6], 0, true));                 // IMAD.WIDE.U32 R10, R13, R6, RZ
  R[9] = gpuport_sass_imad(0, 0, R[9], false, P[1], &unused0);                 // IMAD.X R9, RZ, RZ, R9, P1
  R[15] = iadd3(R[10], true, R[4], false, 0, false, false, &P[1]);             // IADD3 R15, P1, -R10, R4, RZ
  R[11] = gpuport_sass_imad(R[13], R[7], R[11], false, false, &unused0);       // IMAD R11, R13, R7, R11
  R[10] = iadd3(R[13], false, 1, false, 0, false, false, &P[2]);               // IADD3 R10, P2, R13, 0x1, RZ
  P[0] = gpuport_sass_icmp(R[15], R[6], 6, true);                              // ISETP.GE.U32.AND P0, PT, R15, R6, PT
  R[11] = gpuport_sass_imad(R[9], R[6], R[11], false, false, &unused0);        // IMAD R11, R9, R6, R11
  R[12] = gpuport_sass_imad(0, 0, R[9], false, P[2], &unused0);                // IMAD.X R12, RZ, RZ, R9, P2
  R[16] = gpuport_sass_imad(R[5], 1, ~R[11], false, P[1], &unused0);           // IMAD.X R16, R5, 0x1, ~R11, P1
  R[11] = iadd3(R[6], true, R[15], false, 0, false, false, &P[1]);             // IADD3 R11, P1, -R6, R15, RZ
  P[0] = gpuport_sass_icmp_ex(R[16], R[7], 6, true, P[0]);                     // ISETP.GE.U32.AND.EX P0, PT, R16, R7, PT, P0
  R[14] = gpuport_sass_imad(R[16], 1, ~R[7], false, P[1], &unused0);           // IMAD.X R14, R16, 0x1, ~R7, P1
  P[1] = gpuport_sass_icmp(R[6], 0, 5, true);                                  // ISETP.NE.U32.AND P1, PT, R6, RZ, PT
  R[13] = gpuport_sass_sel(R[10], R[13], P[0]);                                // SEL R13, R10, R13, P0
  R[11] = gpuport_sass_sel(R[11], R[15], P[0]);                                // SEL R11, R11, R15, P0
  R[12] = gpuport_sass_sel(R[12], R[9], P[0]);                                 // SEL R12, R12, R9, P0
  R[9] = 0;                                                                    // IMAD.MOV.U32 R9, RZ, RZ, 0x0
  R[10] = iadd3(R[13], false, 1, false, 0, false, false, &P[2]);               // IADD3 R10, P2, R13, 0x1, RZ
  R[14] = gpuport_sass_sel(R[14], R[16], P[0]);                                // SEL R14, R14, R16, P0
  P[0] = gpuport_sass_icmp(R[11], R[6], 6, true);                              // ISETP.GE.U32.AND P0, PT, R11, R6, PT
  R[11] = gpuport_sass_imad(0, 0, R[12], false, P[2], &unused0);               // IMAD.X R11, RZ, RZ, R12, P2
  P[1] = gpuport_sass_icmp_ex(R[7], 0, 5, false, P[1]);                        // ISETP.NE.AND.EX P1, PT, R7, RZ, PT, P1
  P[0] = gpuport_sass_icmp_ex(R[14], R[7], 6, true, P[0]);                     // ISETP.GE.U32.AND.EX P0, PT, R14, R7, PT, P0
  R[10] = gpuport_sass_sel(R[10], R[13], P[0]);                                // SEL R10, R10, R13, P0
  R[11] = gpuport_sass_sel(R[11], R[12], P[0]);                                // SEL R11, R11, R12, P0
  R[10] = gpuport_sass_sel(R[10], 0xffffffffu, P[1]);                          // SEL R10, R10, 0xffffffff, P1
  R[11] = gpuport_sass_sel(R[11], 0xffffffffu, P[1]);                          // SEL R11, R11, 0xffffffff, P1
  return pair(10);
}

TEST(LiftIntegerImad, NvccSixtyFourBitDivisionIsExact) {
  const std::uint64_t values[] = {1, 2, 3, 7, 10, 0xffffffffull, 0x100000000ull, 0x100000001ull, 1000000007ull,
                                  0x123456789abcdefull, 0x7fffffffffffffffull, 0x8000000000000000ull, ~0ull - 1, ~0ull};
  for (std::uint64_t n : values)
    for (std::uint64_t d : values) EXPECT_EQ(divide_as_nvcc(n, d), n / d) << n << " / " << d;
  std::uint64_t x = 88172645463325252ull;
  for (int i = 0; i < 20000; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    const std::uint64_t n = x;
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    const std::uint64_t d = x >> (x & 63);  // divisors of every size
    if (d == 0) continue;
    ASSERT_EQ(divide_as_nvcc(n, d), n / d) << n << " / " << d;
  }
  EXPECT_EQ(divide_as_nvcc(5, 0), ~0ull);  // division by zero: all ones, as nvcc's routine returns
}

// ---- PRMT ---------------------------------------------------------------------------------------

TEST(LiftIntegerPrmt, EveryMode) {
  // Source bytes {b, a} = 77 66 55 44 | 33 22 11 00: byte k is 0xkk.
  const std::uint32_t a = 0x33221100u, b = 0x77665544u;
  EXPECT_EQ(gpuport_sass_prmt(a, 0x7531, b, 0), 0x77553311u);
  EXPECT_EQ(gpuport_sass_prmt(0x000080ffu, 0x8880, 0, 0), 0xffffffffu);  // bit 3: the sign of byte 0
  EXPECT_EQ(gpuport_sass_prmt(0x0000807fu, 0x0908, 0, 0), 0x7fff7f00u);  // byte 0's sign, byte 1's sign
  // F4E: bytes s..s+3.
  EXPECT_EQ(gpuport_sass_prmt(a, 0, b, 1), 0x33221100u);
  EXPECT_EQ(gpuport_sass_prmt(a, 3, b, 1), 0x66554433u);
  EXPECT_EQ(gpuport_sass_prmt(a, 7, b, 1), 0x66554433u);  // only sel[1:0] count
  // B4E: bytes s, s-1, ... modulo 8.
  EXPECT_EQ(gpuport_sass_prmt(a, 0, b, 2), 0x55667700u);
  EXPECT_EQ(gpuport_sass_prmt(a, 3, b, 2), 0x00112233u);
  // RC8: byte s four times.
  EXPECT_EQ(gpuport_sass_prmt(a, 2, b, 3), 0x22222222u);
  // ECL: bytes below s repeat byte s; ECR: bytes above s repeat byte s.
  EXPECT_EQ(gpuport_sass_prmt(a, 1, b, 4), 0x33221111u);
  EXPECT_EQ(gpuport_sass_prmt(a, 2, b, 4), 0x33222222u);
  EXPECT_EQ(gpuport_sass_prmt(a, 1, b, 5), 0x11111100u);
  EXPECT_EQ(gpuport_sass_prmt(a, 2, b, 5), 0x22221100u);
  // RC16: half s twice.
  EXPECT_EQ(gpuport_sass_prmt(a, 0, b, 6), 0x11001100u);
  EXPECT_EQ(gpuport_sass_prmt(a, 1, b, 6), 0x33223322u);
}

// ---- selects, min/max, absolute values, bit counts ------------------------------------------------

TEST(LiftIntegerMisc, SelectMinMaxAbs) {
  EXPECT_EQ(gpuport_sass_sel(1, 2, true), 1u);
  EXPECT_EQ(gpuport_sass_sel(1, 2, false), 2u);
  // IMNMX d, a, b, PT is the minimum, !PT the maximum.
  EXPECT_EQ(gpuport_sass_imnmx(0xffffffffu, 1, false, true), 0xffffffffu);  // min(-1, 1)
  EXPECT_EQ(gpuport_sass_imnmx(0xffffffffu, 1, true, true), 1u);            // unsigned
  EXPECT_EQ(gpuport_sass_imnmx(0x80000000u, 0x7fffffffu, false, false), 0x7fffffffu);
  EXPECT_EQ(gpuport_sass_imnmx(0x80000000u, 0x7fffffffu, true, false), 0x80000000u);
  EXPECT_EQ(gpuport_sass_iabs(0xfffffff6u), 10u);
  EXPECT_EQ(gpuport_sass_iabs(0x80000000u), 0x80000000u);  // |INT_MIN| wraps
  EXPECT_EQ(gpuport_sass_absdiff_add(3, 10, 100, true), 107u);
  EXPECT_EQ(gpuport_sass_absdiff_add(0x80000000u, 0x7fffffffu, 0, false), 0xffffffffu);  // |-2^31 - (2^31-1)|
  EXPECT_EQ(gpuport_sass_absdiff_add(0x80000000u, 0x7fffffffu, 0, true), 1u);
}

// Blackwell's three-source, fused and 64-bit forms against the 32-bit min/max and host compares.
TEST(LiftIntegerMisc, BlackwellMinMaxAndPairs) {
  EXPECT_EQ(gpuport_sass_imnmx3(5, 0xfffffffdu, 2, false, true), 0xfffffffdu);  // min(5, -3, 2)
  EXPECT_EQ(gpuport_sass_imnmx3(5, 0xfffffffdu, 2, true, true), 2u);           // unsigned: -3 is large
  EXPECT_EQ(gpuport_sass_imnmx3(5, 0xfffffffdu, 7, false, false), 7u);
  EXPECT_EQ(gpuport_sass_relu(0xfffffffdu), 0u);
  EXPECT_EQ(gpuport_sass_relu(7), 7u);
  EXPECT_EQ(gpuport_sass_relu(0x80000000u), 0u);
  // The sum wraps before the compare: 0x7fffffff + 1 is INT_MIN, the signed minimum.
  EXPECT_EQ(gpuport_sass_iadd_mnmx(0x7fffffffu, 1, 0, false, true), 0x80000000u);
  EXPECT_EQ(gpuport_sass_iadd_mnmx(0x7fffffffu, 1, 0, true, true), 0u);
  EXPECT_EQ(gpuport_sass_iadd_mnmx(10, 0xffffffffu, 3, false, false), 9u);  // max(10 - 1, 3)
  const unsigned long long big = 0x8000000000000000ull, one = 1;
  EXPECT_EQ(gpuport_sass_imnmx64(big, one, true, true), one);
  EXPECT_EQ(gpuport_sass_imnmx64(big, one, false, true), big);  // signed: INT64_MIN
  EXPECT_EQ(gpuport_sass_imnmx64(big, one, true, false), big);
  const unsigned long long values[] = {0, 1, 0xffffffffull, 0x100000000ull, big, ~0ull, 0x7fffffffffffffffull};
  for (unsigned long long a : values)
    for (unsigned long long b : values) {
      const long long sa = static_cast<long long>(a), sb = static_cast<long long>(b);
      EXPECT_EQ(gpuport_sass_icmp64(a, b, 1, true), a < b);
      EXPECT_EQ(gpuport_sass_icmp64(a, b, 1, false), sa < sb);
      EXPECT_EQ(gpuport_sass_icmp64(a, b, 3, false), sa <= sb);
      EXPECT_EQ(gpuport_sass_icmp64(a, b, 4, true), a > b);
      EXPECT_EQ(gpuport_sass_icmp64(a, b, 5, true), a != b);
      EXPECT_EQ(gpuport_sass_icmp64(a, b, 6, false), sa >= sb);
      EXPECT_EQ(gpuport_sass_icmp64(a, b, 2, false), a == b);
    }
}

TEST(LiftIntegerBits, PopcFloBrev) {
  EXPECT_EQ(gpuport_sass_popc(0), 0u);
  EXPECT_EQ(gpuport_sass_popc(0xffffffffu), 32u);
  EXPECT_EQ(gpuport_sass_popc(0x80000001u), 2u);
  // FLO.U32: the highest set bit; none: 0xffffffff. .SH: 31 - that (the leading zeros).
  EXPECT_EQ(gpuport_sass_flo(1, false, false), 0u);
  EXPECT_EQ(gpuport_sass_flo(0x80000000u, false, false), 31u);
  EXPECT_EQ(gpuport_sass_flo(0, false, false), 0xffffffffu);
  EXPECT_EQ(gpuport_sass_flo(0x00010000u, false, true), 15u);
  EXPECT_EQ(gpuport_sass_flo(0, false, true), 0xffffffffu);
  // FLO (signed): a negative value's highest 0; -1 and 0 have none.
  EXPECT_EQ(gpuport_sass_flo(0xfffffff0u, true, false), 3u);
  EXPECT_EQ(gpuport_sass_flo(0xffffffffu, true, false), 0xffffffffu);
  EXPECT_EQ(gpuport_sass_flo(0x40000000u, true, false), 30u);
  EXPECT_EQ(gpuport_sass_flo(0x80000000u, true, false), 30u);
  EXPECT_EQ(gpuport_sass_brev(1), 0x80000000u);
  EXPECT_EQ(gpuport_sass_brev(0x12345678u), 0x1e6a2c48u);
}

TEST(LiftIntegerBits, MasksAndExtensions) {
  // BMSK d, position, width.
  EXPECT_EQ(gpuport_sass_bmsk(4, 8, false), 0x00000ff0u);
  EXPECT_EQ(gpuport_sass_bmsk(0, 32, false), 0xffffffffu);
  EXPECT_EQ(gpuport_sass_bmsk(0, 40, false), 0xffffffffu);  // width clamps to 32
  EXPECT_EQ(gpuport_sass_bmsk(28, 8, false), 0xf0000000u);  // bits past 31 dropped
  EXPECT_EQ(gpuport_sass_bmsk(32, 4, false), 0u);           // position 32: nothing
  EXPECT_EQ(gpuport_sass_bmsk(4, 0, false), 0u);
  EXPECT_EQ(gpuport_sass_bmsk(36, 8, true), 0x00000ff0u);   // .W: 36 -> 4
  EXPECT_EQ(gpuport_sass_bmsk(4, 32, true), 0u);            // .W: width 32 -> 0
  // SGXT d, a, width: sign- (or with .U32 zero-) extension of the low `width` bits.
  EXPECT_EQ(gpuport_sass_sgxt(0x000000f0u, 8, true, false), 0xfffffff0u);
  EXPECT_EQ(gpuport_sass_sgxt(0x000000f0u, 9, true, false), 0x000000f0u);
  EXPECT_EQ(gpuport_sass_sgxt(0x123456f0u, 8, false, false), 0x000000f0u);
  EXPECT_EQ(gpuport_sass_sgxt(0x80000000u, 32, true, false), 0x80000000u);
  EXPECT_EQ(gpuport_sass_sgxt(0x80000000u, 40, true, false), 0x80000000u);  // clamps to 32
  EXPECT_EQ(gpuport_sass_sgxt(0xffffffffu, 0, true, false), 0u);
  EXPECT_EQ(gpuport_sass_sgxt(0xffffffffu, 33, true, true), 0xffffffffu);  // .W: 1 bit, set
  EXPECT_EQ(gpuport_sass_sgxt(0xffffffffu, 32, false, true), 0u);          // .W: 0 bits
}

TEST(LiftIntegerBits, PredicateFileBytes) {
  // P2R d, PR, a, mask: PR = P0 and P3 set (0b1001).
  EXPECT_EQ(gpuport_sass_p2r(0x09, 0, 0x7f, 0), 0x09u);
  EXPECT_EQ(gpuport_sass_p2r(0x09, 0xffffffffu, 0x01, 0), 0xffffffffu);   // bit 0 from P0 (1)
  EXPECT_EQ(gpuport_sass_p2r(0x09, 0xffffffffu, 0x02, 0), 0xfffffffdu);   // bit 1 from P1 (0)
  EXPECT_EQ(gpuport_sass_p2r(0x09, 0x12345678u, 0xff, 1), 0x12340978u);  // .B1: byte 1
  EXPECT_EQ(gpuport_sass_p2r(0x7f, 0, 0xff, 3), 0x7f000000u);            // PT's bit reads as 0
  // R2P PR, a, mask: the masked predicates from a byte of a.
  EXPECT_EQ(gpuport_sass_r2p(0x00, 0x05, 0x7f, 0), 0x05u);
  EXPECT_EQ(gpuport_sass_r2p(0x7f, 0x00, 0x03, 0), 0x7cu);                // only P0, P1 written
  EXPECT_EQ(gpuport_sass_r2p(0x00, 0x00aa0000u, 0xff, 2), 0x2au);        // .B2; bit 7 dropped
}

TEST(LiftIntegerBits, DotProducts) {
  // IDP.4A.S8.S8: bytes (-1, 2, -3, 4) . (5, -6, 7, -8) + 100 = -5 - 12 - 21 - 32 + 100 = 30.
  const std::uint32_t a = 0x04fd02ffu, b = 0xf807fa05u;
  EXPECT_EQ(gpuport_sass_idp4a(a, b, 100, true, true), 30u);
  // Unsigned bytes: 255*5 + 2*250 + 253*7 + 4*248 = 1275 + 500 + 1771 + 992 = 4538.
  EXPECT_EQ(gpuport_sass_idp4a(a, b, 0, false, false), 4538u);
  // IDP.2A.LO.S16.S8: halves (0x02ff = 767, 0x04fd = 1277) . bytes 0, 1 of b (5, -6) = 3835 - 7662.
  EXPECT_EQ(gpuport_sass_idp2a(a, b, 0, true, true, false), static_cast<std::uint32_t>(3835 - 7662));
  // .HI.U16.U8: bytes 2, 3 of b unsigned (0x07 = 7, 0xf8 = 248).
  EXPECT_EQ(gpuport_sass_idp2a(a, b, 1, false, false, true), 1u + 767u * 7u + 1277u * 248u);
}

// ---- the lifter: forms it refuses -------------------------------------------------------------------

// Lifts a one-kernel listing `_Z1kPj` with `body` as its instructions and returns the findings.
std::string lift_findings(const std::string& body) {
  const std::string text = std::string(
                               "\t.headerflags\t@\"EF_CUDA_SM80 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM80)\"\n"
                               "\t.section\t.text._Z1kPj\n"
                               "        .other          _Z1kPj,@\"STO_CUDA_ENTRY STV_DEFAULT\"\n"
                               "_Z1kPj:\n.text._Z1kPj:\n") +
                           body + "        /*0f00*/                   EXIT ;\n";
  gpuport::sass::SassParseOptions options;
  options.arch = 80;
  auto parsed = gpuport::sass::parse_sass(text, options);
  if (parsed.programs.empty() || parsed.programs.front().functions.empty()) return "no function parsed";
  auto module = gpuport::lift::make_lift_module("t", gpuport::lift::LiftTarget::gfx1100_wave32);
  if (!module) return "no semantics module";
  gpuport::lift::LiftRequest request;
  request.program = &parsed.programs.front();
  request.kernel = &parsed.programs.front().functions.front();
  request.arch = 80;
  std::vector<gpuport::Diagnostic> info_findings;
  request.info = gpuport::lift::kernel_info_from_text(*request.program, *request.kernel, 80, {}, info_findings);
  request.source_name = "t.sass";
  auto result = gpuport::lift::lift_kernel(*module->module, request);
  std::string out;
  for (const auto& f : result.findings) out += f.message + "\n";
  return out;
}

TEST(LiftIntegerRefusals, ModelledFormsLiftWithoutFindings) {
  EXPECT_EQ(lift_findings("        /*0000*/                   LOP3.LUT P0, R0, R1, 0xff, RZ, 0xc0, !PT ;\n"
                          "        /*0010*/                   SHF.L.W.U32.HI R2, R0, 0x5, R0 ;\n"
                          "        /*0020*/                   LEA.HI.X.SX32 R3, R0, R1, 0x2, P0 ;\n"
                          "        /*0030*/                   PLOP3.LUT P1, PT, P0, PT, PT, 0x80, 0x0 ;\n"
                          "        /*0040*/                   P2R R4, PR, RZ, 0x3 ;\n"
                          "        /*0050*/                   R2P PR, R4.B1, 0x7f ;\n"
                          "        /*0060*/                   UFLO.U32 UR4, UR5 ;\n"
                          "        /*0070*/                   PRMT.ECL R5, R0, R1, R2 ;\n"),
            "");
}

TEST(LiftIntegerRefusals, UnknownModifiersSuffixesAndRelocations) {
  EXPECT_NE(lift_findings("        /*0000*/                   SHF.L.XYZ.U32 R0, R1, 0x1, RZ ;\n")
                .find("SHF with the modifier .XYZ is not supported"),
            std::string::npos);
  EXPECT_NE(lift_findings("        /*0000*/                   IADD3 R0, R1.H1, R2, RZ ;\n").find("operand suffix .H1"),
            std::string::npos);
  // A relocated address is a value (the memory family resolves it); without the cubin the
  // symbol is unknown, which is said.
  EXPECT_NE(lift_findings("        /*0000*/                   MOV R0, 32@lo(table) ;\n").find("table"), std::string::npos);
  EXPECT_NE(lift_findings("        /*0000*/                   LOP3.LUT R0, R1, R2, R3, 32@lo(table), !PT ;\n"), "");
  EXPECT_NE(lift_findings("        /*0000*/                   SHF.L R0, R1, 0x1, RZ ;\n").find("one type"), std::string::npos);
  EXPECT_NE(lift_findings("        /*0000*/                   PLOP3.LUT P0, P1, P2, P3, PT, 0x80, 0x1 ;\n")
                .find("second predicate"),
            std::string::npos);
  EXPECT_NE(lift_findings("        /*0000*/                   IMAD.HI.X R0, P0, R1, R2, R4, P1 ;\n").find("signed IMAD.HI"),
            std::string::npos);
}

}  // namespace
