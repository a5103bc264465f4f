// The matrix (tensor core) SASS semantics over a whole simulated warp (native::run_warp): each
// lane's fragments are built from full matrices with the PTX ISA's "Matrix Fragments for
// mma.mMnNkK" tables, written out here per shape, and the D fragments gathered back are checked
// against a CPU matrix product; plus NaN/Inf/denormal rules, saturation, LDSM and MOVM lane maps.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <utility>
#include <vector>

#include "float_bits.h"
#include "lift/semantics/sass_half.h"
#include "lift/semantics/sass_mma.h"
#include "lift/semantics/target_native.h"

namespace {

using gpuport::lift::native::run_warp;

using gpuport::testing::bits;
using gpuport::testing::from_bits;

// Where fragment element i of a lane sits in its matrix: (row, column). g = lane / 4, t = lane % 4.
using Place = std::function<std::pair<int, int>(int lane, int i)>;

// One mma shape's fragments as the PTX tables give them.
struct Layout {
  int m, k;            // A is m x k, B is k x 8, C and D are m x 8
  int element_bits;    // of A and B
  int a_elements, b_elements;  // per lane
  Place a, b;
};

// C and D of m16n8 (c0..c3) and m8n8 (c0, c1): row g (+8 for c2, c3), column 2t + (i & 1).
std::pair<int, int> c_place(int lane, int i) { return {lane / 4 + 8 * (i / 2), 2 * (lane % 4) + (i & 1)}; }

// The tables, one per shape (PTX ISA 7.8, section 9.7.13.4).
Layout m16n8k16_f16() {
  return {16, 16, 16, 8, 4,
          [](int l, int i) { return std::pair{l / 4 + ((i == 2 || i == 3 || i == 6 || i == 7) ? 8 : 0), (l % 4) * 2 + (i & 1) + (i >= 4 ? 8 : 0)}; },
          [](int l, int i) { return std::pair{(l % 4) * 2 + (i & 1) + (i >= 2 ? 8 : 0), l / 4}; }};
}
Layout m16n8k8_f16() {
  return {16, 8, 16, 4, 2, [](int l, int i) { return std::pair{l / 4 + (i >= 2 ? 8 : 0), (l % 4) * 2 + (i & 1)}; },
          [](int l, int i) { return std::pair{(l % 4) * 2 + i, l / 4}; }};
}
Layout m16n8k4_tf32() {
  return {16, 4, 32, 2, 1, [](int l, int i) { return std::pair{l / 4 + (i == 1 ? 8 : 0), l % 4}; },
          [](int l, int) { return std::pair{l % 4, l / 4}; }};
}
Layout m16n8k8_tf32() {
  return {16, 8, 32, 4, 2, [](int l, int i) { return std::pair{l / 4 + (i % 2 ? 8 : 0), l % 4 + (i >= 2 ? 4 : 0)}; },
          [](int l, int i) { return std::pair{l % 4 + (i ? 4 : 0), l / 4}; }};
}
Layout m16n8k32_i8() {
  return {16, 32, 8, 16, 8,
          [](int l, int i) { return std::pair{l / 4 + ((i / 4) % 2 ? 8 : 0), (l % 4) * 4 + (i & 3) + (i >= 8 ? 16 : 0)}; },
          [](int l, int i) { return std::pair{(l % 4) * 4 + (i & 3) + (i >= 4 ? 16 : 0), l / 4}; }};
}
Layout m16n8k16_i8() {
  return {16, 16, 8, 8, 4, [](int l, int i) { return std::pair{l / 4 + (i >= 4 ? 8 : 0), (l % 4) * 4 + (i & 3)}; },
          [](int l, int i) { return std::pair{(l % 4) * 4 + i, l / 4}; }};
}
Layout m8n8k16_i8() {
  return {8, 16, 8, 4, 4, [](int l, int i) { return std::pair{l / 4, (l % 4) * 4 + i}; },
          [](int l, int i) { return std::pair{(l % 4) * 4 + i, l / 4}; }};
}
Layout m16n8k64_i4() {
  return {16, 64, 4, 32, 16,
          [](int l, int i) { return std::pair{l / 4 + ((i / 8) % 2 ? 8 : 0), (l % 4) * 8 + (i & 7) + (i >= 16 ? 32 : 0)}; },
          [](int l, int i) { return std::pair{(l % 4) * 8 + (i & 7) + (i >= 8 ? 32 : 0), l / 4}; }};
}
Layout m16n8k256_b1() {
  return {16, 256, 1, 128, 64,
          [](int l, int i) { return std::pair{l / 4 + ((i / 32) % 2 ? 8 : 0), (l % 4) * 32 + (i & 31) + (i >= 64 ? 128 : 0)}; },
          [](int l, int i) { return std::pair{(l % 4) * 32 + (i & 31) + (i >= 32 ? 128 : 0), l / 4}; }};
}

// Matrices of element codes (the bits of each element), row-major.
struct Codes {
  std::vector<std::uint32_t> a, b;  // m x k, k x 8
};

// Packs each lane's A and B registers from element codes.
void pack(const Layout& layout, const Codes& codes, std::vector<std::uint32_t> (&a)[32], std::vector<std::uint32_t> (&b)[32]) {
  const int per_word = 32 / layout.element_bits;
  const std::uint32_t mask = layout.element_bits == 32 ? ~0u : (1u << layout.element_bits) - 1;
  for (int lane = 0; lane < 32; ++lane) {
    a[lane].assign(layout.a_elements / per_word, 0);
    b[lane].assign(layout.b_elements / per_word, 0);
    for (int i = 0; i < layout.a_elements; ++i) {
      auto [r, c] = layout.a(lane, i);
      a[lane][i / per_word] |= (codes.a[r * layout.k + c] & mask) << (layout.element_bits * (i % per_word));
    }
    for (int i = 0; i < layout.b_elements; ++i) {
      auto [r, c] = layout.b(lane, i);
      b[lane][i / per_word] |= (codes.b[r * 8 + c] & mask) << (layout.element_bits * (i % per_word));
    }
  }
}

std::uint32_t half_code(double x) { return gpuport_sass_half_from_double(x); }

// Runs HMMA over the warp with f32 C (m x 8, row-major) and returns D as a row-major m x 8 matrix.
std::vector<float> run_hmma(const Layout& layout, int type, const Codes& codes, const std::vector<float>& c) {
  std::vector<std::uint32_t> a[32], b[32];
  pack(layout, codes, a, b);
  std::vector<float> d(16 * 8, -12345.0f);
  EXPECT_TRUE(run_warp(~0u, [&](std::uint32_t lane) {
    std::uint32_t cr[4], dr[4];
    for (int i = 0; i < 4; ++i) {
      auto [r, col] = c_place(static_cast<int>(lane), i);
      cr[i] = bits(c[r * 8 + col]);
    }
    gpuport_sass_hmma(static_cast<std::uint32_t>(layout.k), static_cast<std::uint32_t>(type), false, a[lane].data(), b[lane].data(), cr, dr);
    for (int i = 0; i < 4; ++i) {
      auto [r, col] = c_place(static_cast<int>(lane), i);
      d[r * 8 + col] = from_bits(dr[i]);
    }
  }));
  return d;
}

// The exact product (the test data keep every partial sum exact in f32).
std::vector<double> reference(int m, int k, const std::vector<double>& a, const std::vector<double>& b, const std::vector<double>& c) {
  std::vector<double> d(m * 8);
  for (int r = 0; r < m; ++r)
    for (int col = 0; col < 8; ++col) {
      double s = c[r * 8 + col];
      for (int i = 0; i < k; ++i) s += a[r * k + i] * b[i * 8 + col];
      d[r * 8 + col] = s;
    }
  return d;
}

// Random small integers and halves in [-4, 4]: products and sums stay exact in f16, bf16 and f32.
std::vector<double> small_values(std::mt19937& rng, int n) {
  std::uniform_int_distribution<int> pick(-8, 8);
  std::vector<double> v(n);
  for (auto& x : v) x = pick(rng) / 2.0;
  return v;
}

enum Encoding { kF16, kBf16, kTf32 };
std::uint32_t encode(double x, Encoding e) {
  if (e == kF16) return half_code(x);
  const std::uint32_t f = bits(static_cast<float>(x));
  return e == kBf16 ? f >> 16 : f;
}

void check_float_form(const Layout& layout, int type, Encoding encoding, std::uint32_t tf32_noise = 0) {
  std::mt19937 rng(static_cast<unsigned>(layout.k * 31 + type));
  const auto a = small_values(rng, 16 * layout.k), b = small_values(rng, layout.k * 8), c = small_values(rng, 16 * 8);
  Codes codes;
  for (double x : a) codes.a.push_back(encode(x, encoding) | tf32_noise);
  for (double x : b) codes.b.push_back(encode(x, encoding) | tf32_noise);
  const std::vector<float> cf(c.begin(), c.end());
  const auto d = run_hmma(layout, type, codes, cf);
  const auto expected = reference(16, layout.k, a, b, c);
  for (int i = 0; i < 16 * 8; ++i) EXPECT_EQ(d[i], static_cast<float>(expected[i])) << "element " << i / 8 << "," << i % 8;
}

TEST(LiftMmaSemantics, HmmaF16ProductsMatchTheCpuProduct) {
  check_float_form(m16n8k16_f16(), SASS_MMA_F16, kF16);
  check_float_form(m16n8k8_f16(), SASS_MMA_F16, kF16);
}

TEST(LiftMmaSemantics, HmmaBf16AndTf32Products) {
  check_float_form(m16n8k16_f16(), SASS_MMA_BF16, kBf16);  // bf16 has f16's fragment layout
  check_float_form(m16n8k8_f16(), SASS_MMA_BF16, kBf16);
  check_float_form(m16n8k4_tf32(), SASS_MMA_TF32, kTf32);
  check_float_form(m16n8k8_tf32(), SASS_MMA_TF32, kTf32);
  // tf32 ignores the low 13 bits of each element's register.
  check_float_form(m16n8k8_tf32(), SASS_MMA_TF32, kTf32, 0x1fffu);
}

// The packed-f16 accumulator: C and D hold (row g, columns 2t, 2t+1) and (row g+8, ...) as H0, H1.
TEST(LiftMmaSemantics, HmmaF16Accumulator) {
  std::mt19937 rng(7);
  const Layout layout = m16n8k16_f16();
  const auto a = small_values(rng, 16 * 16), b = small_values(rng, 16 * 8), c = small_values(rng, 16 * 8);
  Codes codes;
  for (double x : a) codes.a.push_back(half_code(x));
  for (double x : b) codes.b.push_back(half_code(x));
  std::vector<std::uint32_t> fa[32], fb[32];
  pack(layout, codes, fa, fb);
  std::vector<double> d(16 * 8);
  ASSERT_TRUE(run_warp(~0u, [&](std::uint32_t lane) {
    const int g = static_cast<int>(lane) / 4, t = static_cast<int>(lane) % 4;
    std::uint32_t cr[2], dr[2];
    for (int r = 0; r < 2; ++r)
      cr[r] = half_code(c[(g + 8 * r) * 8 + 2 * t]) | (half_code(c[(g + 8 * r) * 8 + 2 * t + 1]) << 16);
    gpuport_sass_hmma(16, SASS_MMA_F16, true, fa[lane].data(), fb[lane].data(), cr, dr);
    for (int r = 0; r < 2; ++r)
      for (int h = 0; h < 2; ++h)
        d[(g + 8 * r) * 8 + 2 * t + h] = gpuport_sass_double_from_half(static_cast<sass_u16>(dr[r] >> (16 * h)));
  }));
  const auto expected = reference(16, 16, a, b, c);
  for (int i = 0; i < 16 * 8; ++i) EXPECT_EQ(d[i], expected[i]) << i;
}

// A single-element product placed at (row, k) x (k, column), all else zero: D is zero except there.
std::vector<float> one_product(const Layout& layout, int row, int kk, int column, double av, double bv, float cv,
                               std::uint32_t a_code = 0, std::uint32_t b_code = 0) {
  Codes codes;
  codes.a.assign(16 * layout.k, 0);
  codes.b.assign(layout.k * 8, 0);
  codes.a[row * layout.k + kk] = a_code ? a_code : half_code(av);
  codes.b[kk * 8 + column] = b_code ? b_code : half_code(bv);
  std::vector<float> c(16 * 8, 0.0f);
  c[row * 8 + column] = cv;
  return run_hmma(layout, SASS_MMA_F16, codes, c);
}

TEST(LiftMmaSemantics, HmmaNanInfAndDenormals) {
  const Layout layout = m16n8k16_f16();
  // f16 denormals multiply exactly into an f32 denormal-free value; C denormals are kept.
  auto d = one_product(layout, 3, 5, 6, 0x1p-24, 0x1p-24, 0.0f);
  EXPECT_EQ(d[3 * 8 + 6], 0x1p-48f);
  d = one_product(layout, 3, 5, 6, 0.0, 0.0, 0x1p-140f);
  EXPECT_EQ(d[3 * 8 + 6], 0x1p-140f);
  // Inf * 0 is NaN: the canonical 0x7fffffff, in every column of the Inf's row (B is 0 elsewhere);
  // the other rows stay 0.
  d = one_product(layout, 9, 15, 1, 0.0, 0.0, 0.0f, 0x7c00u /* +inf */, 0x8000u /* -0 */);
  for (int col = 0; col < 8; ++col) EXPECT_EQ(bits(d[9 * 8 + col]), 0x7fffffffu) << col;
  EXPECT_EQ(d[8 * 8 + 1], 0.0f);
  EXPECT_EQ(d[10 * 8 + 1], 0.0f);
  // A NaN element with a payload still gives the canonical NaN.
  d = one_product(layout, 0, 0, 0, 0.0, 1.0, 0.0f, 0xfd55u);
  EXPECT_EQ(bits(d[0]), 0x7fffffffu);
  // Inf + -Inf from C.
  d = one_product(layout, 15, 8, 7, 0.0, 1.0, -INFINITY, 0x7c00u);
  EXPECT_EQ(bits(d[15 * 8 + 7]), 0x7fffffffu);
  // Inf stays Inf (times 2 in column 7; times 0, NaN, in the others).
  d = one_product(layout, 15, 8, 7, 0.0, 2.0, 1.0f, 0x7c00u);
  EXPECT_EQ(d[15 * 8 + 7], INFINITY);
  EXPECT_EQ(bits(d[15 * 8 + 6]), 0x7fffffffu);
}

// The accumulation model (PTX leaves it open): c first, then k = 0, 1, ... each step rounded to
// nearest even in f32. 1 + 16 * 2^-25: each 2^-25 is a quarter ulp of 1 and is lost.
TEST(LiftMmaSemantics, HmmaAddsInKOrderRoundingEachStep) {
  const Layout layout = m16n8k16_f16();
  Codes codes;
  codes.a.assign(16 * 16, 0);
  codes.b.assign(16 * 8, 0);
  for (int kk = 0; kk < 16; ++kk) codes.a[0 * 16 + kk] = half_code(0x1p-13), codes.b[kk * 8 + 0] = half_code(0x1p-12);
  std::vector<float> c(16 * 8, 0.0f);
  c[0] = 1.0f;
  auto d = run_hmma(layout, SASS_MMA_F16, codes, c);
  EXPECT_EQ(d[0], 1.0f);
  // Without C the same products add exactly: 16 * 2^-25 = 2^-21.
  c[0] = 0.0f;
  d = run_hmma(layout, SASS_MMA_F16, codes, c);
  EXPECT_EQ(d[0], 0x1p-21f);
  // k order: a large product first cancels with C before the small ones are added.
  codes.a[0] = half_code(1024.0), codes.b[0] = half_code(-1.0);
  c[0] = 1024.0f;  // 1024 + 1024 * -1 = 0, then + 15 * 2^-25
  d = run_hmma(layout, SASS_MMA_F16, codes, c);
  EXPECT_EQ(d[0], 15 * 0x1p-25f);
}

// Integer forms: exact sums, wrap-around, .SAT.
struct IntRun {
  Layout layout;
  int a_type, b_type;
  bool saturate;
};

std::vector<std::int64_t> run_int(const IntRun& run, const std::vector<int>& a, const std::vector<int>& b, const std::vector<std::int32_t>& c,
                                  bool bits_op = false, bool xor_op = false) {
  Codes codes;
  for (int x : a) codes.a.push_back(static_cast<std::uint32_t>(x));
  for (int x : b) codes.b.push_back(static_cast<std::uint32_t>(x));
  std::vector<std::uint32_t> fa[32], fb[32];
  pack(run.layout, codes, fa, fb);
  const int m = run.layout.m;
  std::vector<std::int64_t> d(m * 8);
  EXPECT_TRUE(run_warp(~0u, [&](std::uint32_t lane) {
    std::uint32_t cr[4] = {}, dr[4] = {};
    for (int i = 0; i < m / 4; ++i) {
      auto [r, col] = c_place(static_cast<int>(lane), i);
      cr[i] = static_cast<std::uint32_t>(c[r * 8 + col]);
    }
    if (bits_op)
      gpuport_sass_bmma(static_cast<std::uint32_t>(m), static_cast<std::uint32_t>(run.layout.k), xor_op, fa[lane].data(), fb[lane].data(), cr, dr);
    else
      gpuport_sass_imma(static_cast<std::uint32_t>(m), static_cast<std::uint32_t>(run.layout.k), static_cast<std::uint32_t>(run.a_type),
                        static_cast<std::uint32_t>(run.b_type), run.saturate, fa[lane].data(), fb[lane].data(), cr, dr);
    for (int i = 0; i < m / 4; ++i) {
      auto [r, col] = c_place(static_cast<int>(lane), i);
      d[r * 8 + col] = static_cast<std::int32_t>(dr[i]);
    }
  }));
  return d;
}

void check_int_form(const IntRun& run, int lo, int hi) {
  std::mt19937 rng(static_cast<unsigned>(run.layout.k + run.a_type * 7 + run.layout.m));
  std::uniform_int_distribution<int> pick(lo, hi), pick_c(-100000, 100000);
  const int m = run.layout.m, k = run.layout.k;
  std::vector<int> a(m * k), b(k * 8);
  std::vector<std::int32_t> c(m * 8);
  for (auto& x : a) x = pick(rng);
  for (auto& x : b) x = run.b_type == SASS_MMA_S8 ? std::uniform_int_distribution<int>(-128, 127)(rng) : pick(rng);
  for (auto& x : c) x = pick_c(rng);
  const auto d = run_int(run, a, b, c);
  for (int r = 0; r < m; ++r)
    for (int col = 0; col < 8; ++col) {
      std::int64_t s = c[r * 8 + col];
      for (int i = 0; i < k; ++i) s += static_cast<std::int64_t>(a[r * k + i]) * b[i * 8 + col];
      EXPECT_EQ(d[r * 8 + col], s) << r << "," << col;
    }
}

TEST(LiftMmaSemantics, ImmaProductsMatchTheCpuProduct) {
  check_int_form({m16n8k32_i8(), SASS_MMA_S8, SASS_MMA_S8, false}, -128, 127);
  check_int_form({m16n8k32_i8(), SASS_MMA_U8, SASS_MMA_S8, false}, 0, 255);
  check_int_form({m16n8k16_i8(), SASS_MMA_U8, SASS_MMA_U8, false}, 0, 255);
  check_int_form({m8n8k16_i8(), SASS_MMA_S8, SASS_MMA_S8, true}, -128, 127);
  check_int_form({m16n8k64_i4(), SASS_MMA_S4, SASS_MMA_S4, false}, -8, 7);
  check_int_form({m16n8k64_i4(), SASS_MMA_U4, SASS_MMA_U4, false}, 0, 15);
}

TEST(LiftMmaSemantics, ImmaSaturatesOrWraps) {
  const Layout layout = m16n8k32_i8();
  std::vector<int> a(16 * 32, 0), b(32 * 8, 0);
  std::vector<std::int32_t> c(16 * 8, 0);
  // Row 0 x column 0: 32 * (-128 * -128) = 2^19 added to INT32_MAX - 5; row 1 x column 0 the
  // negative side: 32 * (-128 * 127) added to INT32_MIN + 5; row 2: fits.
  for (int i = 0; i < 32; ++i) a[0 * 32 + i] = -128, a[1 * 32 + i] = 127, b[i * 8 + 0] = -128;
  a[2 * 32 + 0] = 3;
  c[0] = 0x7ffffffa, c[1 * 8] = INT32_MIN + 5, c[2 * 8] = -7;
  auto sat = run_int({layout, SASS_MMA_S8, SASS_MMA_S8, true}, a, b, c);
  EXPECT_EQ(sat[0], INT32_MAX);
  EXPECT_EQ(sat[1 * 8], INT32_MIN);
  EXPECT_EQ(sat[2 * 8], -7 + 3 * -128);
  auto wrap = run_int({layout, SASS_MMA_S8, SASS_MMA_S8, false}, a, b, c);
  EXPECT_EQ(wrap[0], static_cast<std::int32_t>(static_cast<std::uint32_t>(0x7ffffffa) + (1u << 19)));
  EXPECT_EQ(wrap[1 * 8], static_cast<std::int32_t>(static_cast<std::uint32_t>(INT32_MIN + 5) - 32u * 128u * 127u));
}

TEST(LiftMmaSemantics, BmmaPopulationCounts) {
  std::mt19937 rng(3);
  std::uniform_int_distribution<int> bit(0, 1);
  const Layout layout = m16n8k256_b1();
  std::vector<int> a(16 * 256), b(256 * 8);
  std::vector<std::int32_t> c(16 * 8);
  for (auto& x : a) x = bit(rng);
  for (auto& x : b) x = bit(rng);
  for (int i = 0; i < 16 * 8; ++i) c[i] = i - 40;
  for (bool xor_op : {false, true}) {
    const auto d = run_int({layout, 0, 0, false}, a, b, c, true, xor_op);
    for (int r = 0; r < 16; ++r)
      for (int col = 0; col < 8; ++col) {
        std::int64_t s = c[r * 8 + col];
        for (int i = 0; i < 256; ++i) s += xor_op ? (a[r * 256 + i] ^ b[i * 8 + col]) : (a[r * 256 + i] & b[i * 8 + col]);
        EXPECT_EQ(d[r * 8 + col], s) << xor_op << " " << r << "," << col;
      }
  }
}

// DMMA m8n8k4 (DMMA.884) and sm_90's m16n8k4 of f64: A a0 at (g, t) [and (g+8, t)], B b0 at (t, g).
TEST(LiftMmaSemantics, DmmaMatchesTheFmaChain) {
  for (int m : {8, 16}) {
    std::mt19937 rng(static_cast<unsigned>(m));
    std::uniform_real_distribution<double> pick(-3.0, 3.0);
    std::vector<double> a(m * 4), b(4 * 8), c(m * 8);
    for (auto& x : a) x = pick(rng);
    for (auto& x : b) x = pick(rng);
    for (auto& x : c) x = pick(rng);
    a[1 * 4 + 2] = NAN;  // row 1: the canonical NaN
    std::vector<double> d(m * 8);
    ASSERT_TRUE(run_warp(~0u, [&](std::uint32_t lane) {
      const int g = static_cast<int>(lane) / 4, t = static_cast<int>(lane) % 4;
      sass_u64 fa[2], fb[1], fc[4], fd[4];
      for (int j = 0; j < m / 8; ++j) std::memcpy(&fa[j], &a[(g + 8 * j) * 4 + t], 8);
      std::memcpy(&fb[0], &b[t * 8 + g], 8);
      for (int i = 0; i < m / 4; ++i) {
        auto [r, col] = c_place(static_cast<int>(lane), i);
        std::memcpy(&fc[i], &c[r * 8 + col], 8);
      }
      gpuport_sass_dmma(static_cast<std::uint32_t>(m), 4, fa, fb, fc, fd);
      for (int i = 0; i < m / 4; ++i) {
        auto [r, col] = c_place(static_cast<int>(lane), i);
        std::memcpy(&d[r * 8 + col], &fd[i], 8);
      }
    }));
    for (int r = 0; r < m; ++r)
      for (int col = 0; col < 8; ++col) {
        double s = c[r * 8 + col];
        for (int i = 0; i < 4; ++i) s = std::fma(a[r * 4 + i], b[i * 8 + col], s);
        std::uint64_t got;
        std::memcpy(&got, &d[r * 8 + col], 8);
        if (r == 1) EXPECT_EQ(got, 0x7fffffffffffffffull);
        else EXPECT_EQ(d[r * 8 + col], s) << m << ": " << r << "," << col;
      }
  }
}

// LDSM: lanes 8i..8i+7 give row addresses of matrix i; lane L receives row L/4, columns 2(L%4),
// +1 (M88) or column L/4, rows 2(L%4), +1 (MT88): the lane map the lifter uses, applied to a
// shared array whose rows sit at scattered addresses.
TEST(LiftMmaSemantics, LdsmLaneMaps) {
  std::vector<std::uint16_t> shared(4096);
  std::uint32_t row_address[32];
  for (int lane = 0; lane < 32; ++lane) row_address[lane] = static_cast<std::uint32_t>(((lane * 37) % 32) * 128 + 16 * (lane % 3));
  // Matrix i row r (lane 8i + r's address) column c holds 1000 i + 10 r + c.
  for (int lane = 0; lane < 32; ++lane)
    for (int col = 0; col < 8; ++col) shared[row_address[lane] / 2 + col] = static_cast<std::uint16_t>(1000 * (lane / 8) + 10 * (lane % 8) + col);
  for (bool transposed : {false, true})
    for (std::uint32_t lane = 0; lane < 32; ++lane)
      for (std::uint32_t matrix = 0; matrix < 4; ++matrix) {
        std::uint16_t got[2];
        for (std::uint32_t half = 0; half < 2; ++half) {
          const std::uint32_t from = gpuport_sass_ldsm_source_lane(lane, matrix, transposed, transposed ? half : 0);
          const std::uint32_t address = row_address[from] + gpuport_sass_ldsm_row_offset(lane, transposed) + (transposed ? 0 : 2 * half);
          got[half] = shared[address / 2];
        }
        const int g = static_cast<int>(lane) / 4, t = static_cast<int>(lane) % 4;
        for (int h = 0; h < 2; ++h) {
          const int row = transposed ? 2 * t + h : g, col = transposed ? g : 2 * t + h;
          EXPECT_EQ(got[h], 1000 * static_cast<int>(matrix) + 10 * row + col) << transposed << " lane " << lane << " matrix " << matrix;
        }
      }
}

// MOVM.16.MT88: the warp's 8x8 matrix (lane L: row L/4, columns 2(L%4), +1) transposed.
TEST(LiftMmaSemantics, MovmTransposes) {
  auto element = [](int r, int c) { return static_cast<std::uint32_t>(0x100 * r + c + 1); };
  std::uint32_t out[32];
  ASSERT_TRUE(run_warp(~0u, [&](std::uint32_t lane) {
    const int g = static_cast<int>(lane) / 4, t = static_cast<int>(lane) % 4;
    out[lane] = gpuport_sass_movm_transpose(element(g, 2 * t) | (element(g, 2 * t + 1) << 16));
  }));
  for (int lane = 0; lane < 32; ++lane) {
    const int g = lane / 4, t = lane % 4;
    EXPECT_EQ(out[lane], element(2 * t, g) | (element(2 * t + 1, g) << 16)) << lane;
  }
}

// The warp simulation itself: a value handed around the warp lane by lane settles.
TEST(LiftMmaSemantics, RunWarpExchangesInLockstep) {
  std::uint32_t out[32];
  ASSERT_TRUE(run_warp(~0u, [&](std::uint32_t lane) {
    std::uint32_t v = lane * 3;
    for (int step = 0; step < 4; ++step) v = gpuport_hook_read_lane(v, (lane + 1) % 32) + 1;
    out[lane] = v;
  }));
  for (std::uint32_t lane = 0; lane < 32; ++lane) EXPECT_EQ(out[lane], ((lane + 4) % 32) * 3 + 4) << lane;
}

}  // namespace
