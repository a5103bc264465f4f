// The gfx1100 emulator's 16-bit, packed, dot-product and WMMA instructions against truth it did not
// produce: kernels of tests/unit/emu/packed_kernels.hip, compiled by clang-19 for gfx1100 in wave32
// and wave64, run on the emulator; every result is checked against a CPU reference computed here in
// long double and rounded to half/bf16 by this file's own conversions (themselves checked against
// the host compiler's _Float16). Skipped without clang-19 and the HIP headers.
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <random>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include "emu_tiers.h"
#include "amdgpu/code_object.h"
#include "amdgpu/decode.h"
#include "common/process.h"
#include "emu/interpreter.h"
#include "emu_kernels.h"
#include "half_reference.h"

namespace gpuport::emu {
namespace {
namespace fs = std::filesystem;
using u16 = std::uint16_t;
using u32 = std::uint32_t;
using namespace reference;

// Distance in representable halves between two non-NaN halves (ordered encoding).
int ulp_distance(u16 a, u16 b) {
  auto ordered = [](u16 h) { return (h & 0x8000) ? -int(h & 0x7fff) : int(h); };
  return std::abs(ordered(a) - ordered(b));
}
// `got` is the half nearest to `exact`, or within `ulps` of it; NaN and infinity must match exactly.
::testing::AssertionResult near_half(u16 got, long double exact, int ulps) {
  const u16 want = to_half(exact);
  if (std::isnan(exact)) {
    if (half_nan(got)) return ::testing::AssertionSuccess();
  } else if ((want & 0x7fff) == 0x7c00 || ulps == 0) {
    if (got == want) return ::testing::AssertionSuccess();
  } else if (!half_nan(got) && ulp_distance(got, want) <= ulps) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << fmt::format("got {:#06x}, want {:#06x} (exact {})", got, want, static_cast<double>(exact));
}
::testing::AssertionResult same_half(u16 got, u16 want) {
  if ((half_nan(got) && half_nan(want)) || got == want) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << fmt::format("got {:#06x}, want {:#06x}", got, want);
}

// f16 operands the tests use: the special values, subnormals, the largest finite values, ties, and
// random bit patterns.
std::vector<u16> half_inputs(std::size_t n, unsigned seed, bool specials = true) {
  std::vector<u16> v;
  if (specials)
    v = {0x0000, 0x8000, 0x3c00, 0xbc00, 0x3800, 0x7bff, 0xfbff, 0x0400, 0x0001, 0x03ff, 0x8001, 0x7c00, 0xfc00, 0x7e00,
         0xfe01, 0x7c01, 0x6800, 0x3c01, 0x3bff, 0x3e00, 0xc100, 0x4900, 0x5640, 0x0200, 0x1400};
  std::mt19937 rng(seed);
  while (v.size() < n) {
    const u16 h = static_cast<u16>(rng());
    if ((h & 0x7c00) == 0x7c00 && rng() % 4) continue;  // mostly finite
    v.push_back(h);
  }
  v.resize(n);
  return v;
}

// ---- compiling and running the kernels ------------------------------------------------------------
using Compiled = test::CompiledKernels;

Compiled& compiled(bool wave64) {
  static std::map<bool, Compiled> cache;
  if (auto it = cache.find(wave64); it != cache.end()) return it->second;
  Compiled& c = cache[wave64];
  test::compile_emu_kernels(c, "packed_kernels.hip", wave64);
  return c;
}

class EmuPacked : public ::testing::TestWithParam<testing::WaveAndTier> {
 protected:
  void SetUp() override {
    Compiled& c = compiled(GetParam());
    if (!c.skip_reason.empty()) GTEST_SKIP() << c.skip_reason;
    ASSERT_NE(c.code_object, nullptr) << c.errors;
    auto& m = c.code_object->memory;
    memory.add(reinterpret_cast<std::uint64_t>(m.data()), m.size(), AddressSpace::Kind::code_object, "code object image");
  }
  bool wave64() const { return GetParam(); }
  unsigned wave() const { return GetParam() ? 64 : 32; }
  template <typename T>
  T* device(std::vector<T>& v) {
    memory.add(reinterpret_cast<std::uint64_t>(v.data()), v.size() * sizeof(T), AddressSpace::Kind::device, "test buffer");
    return v.data();
  }
  template <typename... Args>
  ::testing::AssertionResult launch(const std::string& name, std::uint32_t groups, std::uint32_t threads, Args... args) {
    Compiled& c = compiled(GetParam());
    auto it = c.kernels.find(name);
    if (it == c.kernels.end()) return ::testing::AssertionFailure() << "kernel " << name << " was not prepared: " << c.errors;
    const amdgpu::Kernel& k = *it->second->kernel;
    Launch L;
    L.grid = {groups, 1, 1};
    L.block = {threads, 1, 1};
    L.jobs = 2;
    L.timeout_seconds = 60;
    L.kernarg.assign(k.kernarg_segment_size, 0);
    std::size_t index = 0;
    auto put = [&](auto value) {
      while (index < k.arguments.size() && k.arguments[index].value_kind.starts_with("hidden_")) ++index;
      const auto& a = k.arguments.at(index++);
      std::memcpy(L.kernarg.data() + a.offset, &value, sizeof(value));
    };
    (put(args), ...);
    L.jit = GetParam().jit;
    L.jit = GetParam().jit;
  auto r = run_kernel(*it->second, std::move(L), memory, reinterpret_cast<std::uint64_t>(c.code_object->memory.data()));
    if (!r.ok()) return ::testing::AssertionFailure() << (r.diagnostics().empty() ? "" : r.diagnostics()[0].message);
    return ::testing::AssertionSuccess();
  }
  AddressSpace memory;
};

INSTANTIATE_TEST_SUITE_P(Waves, EmuPacked, testing::waves_and_tiers(), testing::wave_and_tier_name);

TEST(EmuPackedReference, HalfConversionAgreesWithTheCompilersFloat16) {
  // The test's own rounding against the host compiler's IEEE _Float16 conversion: every half, the
  // midpoints between neighbours (ties to even), and random doubles across the range.
  auto host = [](double d) {
    const _Float16 h = static_cast<_Float16>(d);
    u16 u;
    std::memcpy(&u, &h, 2);
    return u;
  };
  for (u32 h = 0; h < 0x10000; ++h) {
    if (half_nan(u16(h))) continue;
    ASSERT_EQ(to_half(hv(u16(h))), h);
    if ((h & 0x7fff) < 0x7bff) {
      const long double mid = (hv(u16(h)) + hv(u16(h + 1))) / 2;  // next half up in magnitude
      ASSERT_EQ(to_half(mid), host(static_cast<double>(mid))) << h;
    }
  }
  std::mt19937_64 rng(7);
  for (int i = 0; i < 200000; ++i) {
    const double d = std::ldexp(std::uniform_real_distribution<double>(-1, 1)(rng), int(rng() % 50) - 30);
    ASSERT_EQ(to_half(d), host(d)) << d;
  }
  EXPECT_EQ(to_bf16(1.0), 0x3f80);
  EXPECT_EQ(to_bf16(1.0 + 1.0 / 256), 0x3f80);  // tie to even
  EXPECT_EQ(to_bf16(1.0 + 3.0 / 256), 0x3f82);
}

TEST_P(EmuPacked, EveryKernelIsPrepared) {
  Compiled& c = compiled(GetParam());
  EXPECT_EQ(c.errors, "");
  EXPECT_EQ(c.kernels.size(), c.code_object->kernels.size());
}

TEST_P(EmuPacked, HalfScalarArithmetic) {
  const std::size_t n = 600;
  auto a = half_inputs(n, 1), b = half_inputs(n, 2), c = half_inputs(n, 3);
  std::rotate(b.begin(), b.begin() + 7, b.end());  // specials meet other specials
  std::vector<u16> out(24 * n, 0xdead);
  std::vector<int> flags(n, -1);
  ASSERT_TRUE(launch("half_scalar", (n + 127) / 128, 128, device(a), device(b), device(c), device(out), device(flags), int(n)));
  for (std::size_t i = 0; i < n; ++i) {
    const long double x = hv(a[i]), y = hv(b[i]), z = hv(c[i]);
    const u16* o = &out[24 * i];
    SCOPED_TRACE(fmt::format("element {}: x {:#06x} y {:#06x} z {:#06x}", i, a[i], b[i], c[i]));
    EXPECT_TRUE(near_half(o[0], x + y, 0));
    EXPECT_TRUE(near_half(o[1], x - y, 0));
    EXPECT_TRUE(near_half(o[2], x * y, 0));
    EXPECT_TRUE(near_half(o[3], x * y + z, 0));  // exact in long double: one rounding, a fused multiply-add
    EXPECT_TRUE(same_half(o[4], a[i] ^ 0x8000));
    EXPECT_TRUE(same_half(o[5], a[i] & 0x7fff));
    EXPECT_TRUE(same_half(o[6], x > y ? a[i] : b[i]));
    EXPECT_TRUE(same_half(o[7], x < y ? a[i] : b[i]));
    EXPECT_TRUE(near_half(o[8], std::floor(x), 0));
    EXPECT_TRUE(near_half(o[9], std::ceil(x), 0));
    EXPECT_TRUE(near_half(o[10], std::trunc(x), 0));
    EXPECT_TRUE(near_half(o[11], std::nearbyint(x), 0));
    // Division, square roots and reciprocals use the hardware's approximations: within 1 ulp.
    EXPECT_TRUE(near_half(o[12], x / y, 1));
    EXPECT_TRUE(near_half(o[13], std::sqrt(std::fabs(x)), 1));
    EXPECT_TRUE(near_half(o[14], 1 / x, 1));
    EXPECT_TRUE(near_half(o[15], 1 / std::sqrt(std::fabs(x)), 1));
    // Library functions (ocml over the hardware's f32/f16 approximations): within 2 ulp.
    EXPECT_TRUE(near_half(o[16], std::exp2(x), 2));
    EXPECT_TRUE(near_half(o[17], std::log2(std::fabs(x)), 2));
    EXPECT_TRUE(near_half(o[18], std::log10(std::fabs(x)), 2));
    EXPECT_TRUE(near_half(o[19], std::cos(x), 2));
    EXPECT_TRUE(near_half(o[20], std::exp(x), 2));
    EXPECT_TRUE(near_half(o[21], std::log(std::fabs(x)), 2));
    EXPECT_TRUE(near_half(o[22], hv(to_half(x + 0.5L)) * 4, 0));
    EXPECT_TRUE(near_half(o[23], x * -2 + 1, 0));
    // HIP 5.2's comparisons are C's on _Float16 (its __hequ and __hltu are __heq and __hlt).
    const int want = (x == y) | (x != y) << 1 | (x <= y) << 2 | (x >= y) << 3 | std::isnan(x) << 4 | std::isinf(x) << 5 | (x == y) << 6 |
                     (x < y) << 7;
    EXPECT_EQ(flags[i], want);
  }
}

TEST_P(EmuPacked, HalfPackedArithmetic) {
  const std::size_t n = 500;
  auto lo = half_inputs(n, 11), hi = half_inputs(n, 12), lo2 = half_inputs(n, 13), hi2 = half_inputs(n, 14), lo3 = half_inputs(n, 15),
       hi3 = half_inputs(n, 16);
  std::rotate(hi.begin(), hi.begin() + 3, hi.end());
  std::rotate(lo2.begin(), lo2.begin() + 5, lo2.end());
  std::vector<u32> a(n), b(n), c(n), out(10 * n, 0xdeadbeef);
  for (std::size_t i = 0; i < n; ++i) a[i] = lo[i] | u32(hi[i]) << 16, b[i] = lo2[i] | u32(hi2[i]) << 16, c[i] = lo3[i] | u32(hi3[i]) << 16;
  std::vector<float> f(2 * n);
  ASSERT_TRUE(launch("half_packed", (n + 63) / 64, 64, device(a), device(b), device(c), device(out), device(f), int(n)));
  for (std::size_t i = 0; i < n; ++i) {
    SCOPED_TRACE(fmt::format("element {}: a {:#010x} b {:#010x} c {:#010x}", i, a[i], b[i], c[i]));
    for (int h = 0; h < 2; ++h) {
      const u16 xa = u16(a[i] >> (16 * h)), yb = u16(b[i] >> (16 * h)), zc = u16(c[i] >> (16 * h));
      const long double x = hv(xa), y = hv(yb), z = hv(zc);
      auto r = [&](int k) { return u16(out[10 * i + k] >> (16 * h)); };
      SCOPED_TRACE(h ? "high half" : "low half");
      EXPECT_TRUE(near_half(r(0), x + y, 0));
      EXPECT_TRUE(near_half(r(1), x - y, 0));
      EXPECT_TRUE(near_half(r(2), x * y, 0));
      EXPECT_TRUE(near_half(r(3), x * y + z, 0));
      EXPECT_TRUE(same_half(r(4), xa ^ 0x8000));
      EXPECT_TRUE(same_half(r(5), xa & 0x7fff));
      EXPECT_TRUE(near_half(r(6), x * 2 - 1, 0));
      EXPECT_TRUE(near_half(r(9), hv(to_half(x + y)) * z, 0));
      EXPECT_EQ(std::isnan(f[2 * i + h]), std::isnan(x));
      if (!std::isnan(x)) {
        EXPECT_EQ(f[2 * i + h], static_cast<float>(x));
      }
    }
    EXPECT_EQ(out[10 * i + 7], (a[i] >> 16) | (b[i] << 16));
    EXPECT_TRUE(near_half(u16(out[10 * i + 8]), static_cast<float>(hv(u16(a[i]))) * 3.0f, 0));
    EXPECT_TRUE(near_half(u16(out[10 * i + 8] >> 16), static_cast<float>(hv(u16(b[i] >> 16))) + 0.25f, 0));
  }
}

TEST_P(EmuPacked, HalfConversions) {
  const std::size_t n = 512;
  std::mt19937 rng(21);
  std::vector<float> f(n);
  std::vector<short> s(n);
  std::vector<unsigned short> u(n);
  auto h = half_inputs(n, 22);
  const float special_floats[] = {0.0f, -0.0f, 65504.0f, 65520.0f, 65519.996f, 1e-8f, 2.9802322e-8f, 2.9802326e-8f, 5.9604645e-8f, -1e30f,
                                  NAN, INFINITY, 1.0009766f, 1.00048828125f, 1.00146484375f, 6.1035156e-05f, 3.0517578e-05f};
  for (std::size_t i = 0; i < n; ++i) {
    f[i] = i < std::size(special_floats) ? special_floats[i] : std::ldexp(std::uniform_real_distribution<float>(-1, 1)(rng), int(rng() % 40) - 26);
    s[i] = static_cast<short>(rng());
    u[i] = static_cast<unsigned short>(rng());
  }
  std::vector<u16> oh(4 * n);
  std::vector<float> of(n);
  std::vector<int> oi(4 * n);
  ASSERT_TRUE(launch("half_convert", (n + 127) / 128, 128, device(f), device(h), device(s), device(u), device(oh), device(of), device(oi), int(n)));
  for (std::size_t i = 0; i < n; ++i) {
    SCOPED_TRACE(fmt::format("element {}: f {} h {:#06x} s {} u {}", i, f[i], h[i], s[i], u[i]));
    EXPECT_TRUE(near_half(oh[4 * i + 0], f[i], 0));
    EXPECT_TRUE(near_half(oh[4 * i + 1], s[i], 0));
    EXPECT_TRUE(near_half(oh[4 * i + 2], u[i], 0));
    EXPECT_TRUE(near_half(oh[4 * i + 3], s[i] * 7, 0));
    const long double x = hv(h[i]);
    if (std::isnan(x)) {
      EXPECT_TRUE(std::isnan(of[i]));
      continue;
    }
    EXPECT_EQ(of[i], static_cast<float>(x));
    if (std::fabs(x) < 32768) {
      EXPECT_EQ(oi[4 * i + 0], static_cast<int>(std::trunc(x)));
    }
    if (x > -1 && x < 65536) {
      EXPECT_EQ(oi[4 * i + 1], static_cast<int>(std::trunc(x)));
    }
    if (std::isfinite(x)) {
      EXPECT_EQ(oi[4 * i + 2], static_cast<int>(std::trunc(x)));
    }
    if (std::isfinite(x)) {
      EXPECT_EQ(oi[4 * i + 3], static_cast<int>(std::trunc(x * 2)));
    }
  }
}

TEST_P(EmuPacked, MixedPrecisionFma) {
  const std::size_t n = 400;
  std::mt19937 rng(33);
  // Moderate operands ([1/16, 16), and a few specials), so that x * y + c is exact in long double.
  std::vector<u16> a(n), b(n);
  const u16 specials[] = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x0001, 0x03ff, 0x3c00};
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = i < std::size(specials) ? specials[i] : u16((rng() % 2) << 15 | (11 + rng() % 8) << 10 | (rng() & 0x3ff));
    b[i] = i >= 8 && i < 16 ? specials[i - 8] : u16((rng() % 2) << 15 | (11 + rng() % 8) << 10 | (rng() & 0x3ff));
  }
  std::vector<float> c(n), of(2 * n);
  for (auto& v : c) v = std::uniform_real_distribution<float>(-100, 100)(rng);
  std::vector<u16> oh(2 * n);
  ASSERT_TRUE(launch("half_mixed", (n + 63) / 64, 64, device(a), device(b), device(c), device(of), device(oh), int(n)));
  for (std::size_t i = 0; i < n; ++i) {
    const long double x = hv(a[i]), y = hv(b[i]);
    SCOPED_TRACE(fmt::format("element {}: a {:#06x} b {:#06x} c {}", i, a[i], b[i], c[i]));
    if (std::isnan(x) || std::isnan(y)) continue;
    // x * y + c is exact in long double for these ranges: one rounding to float.
    const float fused = static_cast<float>(x * y + c[i]), fused2 = static_cast<float>(-x * std::fabs(y) + 1);
    if (std::isnan(fused)) EXPECT_TRUE(std::isnan(of[2 * i]));
    else EXPECT_EQ(of[2 * i], fused);
    if (std::isnan(fused2)) EXPECT_TRUE(std::isnan(of[2 * i + 1]));
    else EXPECT_EQ(of[2 * i + 1], fused2);
    EXPECT_TRUE(near_half(oh[2 * i], x * 3, 0));
    EXPECT_TRUE(near_half(oh[2 * i + 1], x * y, 0));
  }
}

TEST_P(EmuPacked, ShortAndCharArithmetic) {
  const std::size_t n = 512;
  std::mt19937 rng(41);
  std::vector<short> a(n), b(n), o(12 * n);
  std::vector<signed char> c(n), d(n), oc(4 * n);
  const short edge[] = {0, 1, -1, 32767, -32768, 255, -256, 16384, 3, -3};
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = i < std::size(edge) ? edge[i] : static_cast<short>(rng());
    b[i] = i < std::size(edge) ? edge[(i + 4) % std::size(edge)] : static_cast<short>(rng());
    c[i] = static_cast<signed char>(rng());
    d[i] = static_cast<signed char>(rng());
  }
  ASSERT_TRUE(launch("small_ints", (n + 63) / 64, 64, device(a), device(b), device(c), device(d), device(o), device(oc), int(n)));
  for (std::size_t i = 0; i < n; ++i) {
    const short x = a[i], y = b[i];
    const unsigned short ux = x, uy = y;
    SCOPED_TRACE(fmt::format("element {}: x {} y {}", i, x, y));
    const short want[12] = {short(x + y), short(x - y), short(x * y), short(x * y + x), x > y ? x : y, ux < uy ? x : y, short(x >> (y & 15)),
                            short(ux >> (uy & 15)), short(x << (y & 15)), y != 0 ? short(x / y) : short(0), short((x & y) ^ (x | 0x00f0)),
                            short(x < 0 ? -x : x)};
    for (int k = 0; k < 12; ++k) EXPECT_EQ(o[12 * i + k], want[k]) << "result " << k;
    const signed char p = c[i], q = d[i];
    EXPECT_EQ(oc[4 * i + 0], static_cast<signed char>(p * q + 3));
    EXPECT_EQ(oc[4 * i + 1], static_cast<signed char>(p >> 2));
    EXPECT_EQ(oc[4 * i + 2], p < q ? p : q);
    EXPECT_EQ(oc[4 * i + 3], static_cast<signed char>(static_cast<unsigned char>(p) / 3));
  }
}

// The ISA's dot products: c + a.lo * b.lo rounded to f32, then + a.hi * b.hi rounded to f32.
float dot2_reference(long double a0, long double b0, long double a1, long double b1, float c) {
  const float t = static_cast<float>(c + a0 * b0);  // the products are exact
  return static_cast<float>(t + a1 * b1);
}

TEST_P(EmuPacked, DotProducts) {
  const std::size_t n = 512;
  std::mt19937 rng(51);
  // f16 operands in [1/16, 16): as bf16 (the same bits) their products stay normal in f32.
  auto moderate = [&] { return u16((rng() % 2) << 15 | (11 + rng() % 8) << 10 | (rng() & 0x3ff)); };
  std::vector<u32> ha(n), hb(n);
  std::vector<float> fc(n), of(3 * n);
  std::vector<int> ia(n), ib(n), ic(n), oi(10 * n);
  std::vector<u16> oh(n), ob(n);
  for (std::size_t i = 0; i < n; ++i) {
    ha[i] = moderate() | u32(moderate()) << 16;
    hb[i] = moderate() | u32(moderate()) << 16;
    fc[i] = std::uniform_real_distribution<float>(-50, 50)(rng);
    ia[i] = static_cast<int>(rng());
    ib[i] = static_cast<int>(rng());
    const int accs[] = {0, 2147483647, -2147483647 - 1, 2147400000, -2147400000, 100};
    ic[i] = i < 36 ? accs[i % 6] : static_cast<int>(rng());
    if (i < 36) ia[i] = i % 2 ? 0x7f7f7f7f : static_cast<int>(0x80808080u), ib[i] = (i / 6) % 2 ? 0x7f7f7f7f : -1;
  }
  ASSERT_TRUE(launch("dots", (n + 63) / 64, 64, device(ha), device(hb), device(fc), device(ia), device(ib), device(ic), device(of), device(oi),
                     device(oh), device(ob), int(n)));
  for (std::size_t i = 0; i < n; ++i) {
    SCOPED_TRACE(fmt::format("element {}: a {:#010x} b {:#010x} c {} ia {:#x} ib {:#x} ic {}", i, ha[i], hb[i], fc[i], ia[i], ib[i], ic[i]));
    const long double a0 = hv(u16(ha[i])), a1 = hv(u16(ha[i] >> 16)), b0 = hv(u16(hb[i])), b1 = hv(u16(hb[i] >> 16));
    EXPECT_EQ(of[3 * i], dot2_reference(a0, b0, a1, b1, fc[i]));
    const long double ba0 = bv(u16(ha[i])), ba1 = bv(u16(ha[i] >> 16)), bb0 = bv(u16(hb[i])), bb1 = bv(u16(hb[i] >> 16));
    EXPECT_EQ(of[3 * i + 1], dot2_reference(ba0, bb0, ba1, bb1, fc[i]));
    EXPECT_EQ(of[3 * i + 2], dot2_reference(a0, b0, a1, b1, 1.0f));
    // 16-bit results: the ISA leaves open whether the products and partial sums are rounded to the
    // 16-bit format on the way; either reading is accepted (the status table lists them approximate).
    const long double c16 = hv(to_half(fc[i]));
    const u16 once = to_half(a0 * b0 + a1 * b1 + c16), stepwise = to_half(hv(to_half(hv(to_half(a0 * b0)) + hv(to_half(a1 * b1)))) + c16);
    EXPECT_TRUE(oh[i] == once || oh[i] == stepwise) << fmt::format("{:#06x}: {:#06x} or {:#06x}", oh[i], once, stepwise);
    const long double cb = bv(u16(ic[i]));
    auto flush = [](long double v) { return std::fabs(v) < std::ldexp(1.0L, -126) ? 0.0L * v : v; };  // bf16 dot flushes denormals
    const u16 bonce = to_bf16(flush(ba0 * bb0 + ba1 * bb1 + flush(cb)));
    const u16 bstep = to_bf16(flush(bv(to_bf16(bv(to_bf16(ba0 * bb0)) + bv(to_bf16(ba1 * bb1)))) + flush(cb)));
    auto bf16_nan = [](u16 h) { return (h & 0x7fff) > 0x7f80; };
    EXPECT_TRUE(ob[i] == bonce || ob[i] == bstep || (bf16_nan(ob[i]) && bf16_nan(bonce)))
        << fmt::format("{:#06x}: {:#06x} or {:#06x}", ob[i], bonce, bstep);
    // Integer dot products, computed wide and saturated where the clamp bit is set.
    auto dot = [&](int bits, bool sa, bool sb, bool is_signed, bool clamp) -> int {
      long long sum = is_signed ? static_cast<long long>(ic[i]) : static_cast<long long>(static_cast<u32>(ic[i]));
      for (int k = 0; k < 32 / bits; ++k) {
        long long p = (static_cast<u32>(ia[i]) >> (bits * k)) & ((1u << bits) - 1), q = (static_cast<u32>(ib[i]) >> (bits * k)) & ((1u << bits) - 1);
        if (sa && p >= (1 << (bits - 1))) p -= 1 << bits;
        if (sb && q >= (1 << (bits - 1))) q -= 1 << bits;
        sum += p * q;
      }
      if (clamp) sum = is_signed ? std::clamp<long long>(sum, INT32_MIN, INT32_MAX) : std::clamp<long long>(sum, 0, 0xffffffffll);
      return static_cast<int>(static_cast<u32>(sum));
    };
    const int* r = &oi[10 * i];
    EXPECT_EQ(r[0], dot(8, true, true, true, false));
    EXPECT_EQ(r[1], dot(8, true, false, true, false));
    EXPECT_EQ(r[2], dot(8, false, true, true, false));
    EXPECT_EQ(r[3], dot(8, false, false, true, true));
    EXPECT_EQ(r[4], dot(8, false, false, false, false));
    EXPECT_EQ(r[5], dot(8, false, false, false, true));
    EXPECT_EQ(r[6], dot(4, true, true, true, false));
    EXPECT_EQ(r[7], dot(4, false, true, true, true));
    EXPECT_EQ(r[8], dot(4, false, false, false, false));
    EXPECT_EQ(r[9], dot(4, false, false, false, true));
  }
}

// ---- WMMA: one 16x16x16 tile, CPU matrix multiply as reference ------------------------------------
// Operands are chosen so that every partial sum is exact in the result's format: then the result
// is the same whatever order and intermediate precision the hardware accumulates in.
std::vector<u16> small_half_matrix(std::mt19937& rng, int numerator_range, int denominator) {
  std::vector<u16> m(256);
  for (auto& v : m) v = to_half(static_cast<long double>(int(rng() % (2 * numerator_range + 1)) - numerator_range) / denominator);
  return m;
}

TEST_P(EmuPacked, WmmaF32FromF16) {
  std::mt19937 rng(61);
  auto a = small_half_matrix(rng, 256, 64), b = small_half_matrix(rng, 256, 64);
  std::vector<float> c(256), d(256, -1.0f);
  for (auto& v : c) v = static_cast<float>(int(rng() % 2001) - 1000) / 8;
  ASSERT_TRUE(launch("wmma_f32_f16", 1, wave(), device(a), device(b), device(c), device(d)));
  for (int m = 0; m < 16; ++m)
    for (int n = 0; n < 16; ++n) {
      long double sum = c[m * 16 + n];
      for (int k = 0; k < 16; ++k) sum += hv(a[m * 16 + k]) * hv(b[k * 16 + n]);
      EXPECT_EQ(d[m * 16 + n], static_cast<float>(sum)) << m << "," << n;
    }
}

TEST_P(EmuPacked, WmmaF32FromBf16) {
  std::mt19937 rng(62);
  std::vector<u16> a(256), b(256);
  for (auto& v : a) v = to_bf16(static_cast<long double>(int(rng() % 129) - 64) / 8);
  for (auto& v : b) v = to_bf16(static_cast<long double>(int(rng() % 129) - 64) / 8);
  std::vector<float> c(256), d(256, -1.0f);
  for (auto& v : c) v = static_cast<float>(int(rng() % 2001) - 1000) / 4;
  ASSERT_TRUE(launch("wmma_f32_bf16", 1, wave(), device(a), device(b), device(c), device(d)));
  for (int m = 0; m < 16; ++m)
    for (int n = 0; n < 16; ++n) {
      long double sum = c[m * 16 + n];
      for (int k = 0; k < 16; ++k) sum += bv(a[m * 16 + k]) * bv(b[k * 16 + n]);
      EXPECT_EQ(d[m * 16 + n], static_cast<float>(sum)) << m << "," << n;
    }
}

TEST_P(EmuPacked, WmmaF16InEitherHalf) {
  for (const char* kernel : {"wmma_f16_low", "wmma_f16_high"}) {
    SCOPED_TRACE(kernel);
    std::mt19937 rng(63);
    auto a = small_half_matrix(rng, 2, 1), b = small_half_matrix(rng, 2, 1), c = small_half_matrix(rng, 100, 1);
    std::vector<u16> d(256, 0xdead);
    ASSERT_TRUE(launch(kernel, 1, wave(), device(a), device(b), device(c), device(d)));
    for (int m = 0; m < 16; ++m)
      for (int n = 0; n < 16; ++n) {
        long double sum = hv(c[m * 16 + n]);
        for (int k = 0; k < 16; ++k) sum += hv(a[m * 16 + k]) * hv(b[k * 16 + n]);
        EXPECT_EQ(d[m * 16 + n], to_half(sum)) << m << "," << n;
      }
  }
}

TEST_P(EmuPacked, WmmaBf16) {
  std::mt19937 rng(64);
  std::vector<u16> a(256), b(256), c(256), d(256, 0xdead);
  for (auto& v : a) v = to_bf16(int(rng() % 5) - 2);
  for (auto& v : b) v = to_bf16(int(rng() % 5) - 2);
  for (auto& v : c) v = to_bf16(int(rng() % 101) - 50);
  ASSERT_TRUE(launch("wmma_bf16", 1, wave(), device(a), device(b), device(c), device(d)));
  for (int m = 0; m < 16; ++m)
    for (int n = 0; n < 16; ++n) {
      long double sum = bv(c[m * 16 + n]);
      for (int k = 0; k < 16; ++k) sum += bv(a[m * 16 + k]) * bv(b[k * 16 + n]);
      EXPECT_EQ(d[m * 16 + n], to_bf16(sum)) << m << "," << n;
    }
}

TEST_P(EmuPacked, WmmaIntegers) {
  // A is row-major bytes/nibbles along K; B is stored column by column (column n's K values).
  struct Case {
    const char* kernel;
    int bits;
    bool signed_a, signed_b;
  };
  for (const Case& t : {Case{"wmma_iu8_ss", 8, true, true}, Case{"wmma_iu8_su", 8, true, false}, Case{"wmma_iu8_uu", 8, false, false},
                        Case{"wmma_iu4", 4, true, false}}) {
    SCOPED_TRACE(t.kernel);
    std::mt19937 rng(65);
    const int words = 16 * t.bits / 32;  // per row or column
    std::vector<int> a(16 * words), b(16 * words), c(256), d(256, -1);
    for (auto& v : a) v = static_cast<int>(rng());
    for (auto& v : b) v = static_cast<int>(rng());
    for (auto& v : c) v = static_cast<int>(rng() % 2000001) - 1000000;
    ASSERT_TRUE(launch(t.kernel, 1, wave(), device(a), device(b), device(c), device(d)));
    auto element = [&](const std::vector<int>& v, int row, int k, bool is_signed) {
      const u32 word = static_cast<u32>(v[row * words + k * t.bits / 32]);
      int x = static_cast<int>((word >> (t.bits * (k % (32 / t.bits)))) & ((1u << t.bits) - 1));
      if (is_signed && x >= 1 << (t.bits - 1)) x -= 1 << t.bits;
      return x;
    };
    for (int m = 0; m < 16; ++m)
      for (int n = 0; n < 16; ++n) {
        long long sum = c[m * 16 + n];
        for (int k = 0; k < 16; ++k) sum += static_cast<long long>(element(a, m, k, t.signed_a)) * element(b, n, k, t.signed_b);
        EXPECT_EQ(d[m * 16 + n], static_cast<int>(sum)) << m << "," << n;
      }
  }
}

// The emulator's documented reading of WMMA (data/emu/approximate.tsv): the exact sum of the 16
// products and C, rounded once to nearest even. Checked with operands whose partial sums are not
// representable, against an exact fixed-point sum (units of 2^-48, the smallest f16 product) rounded
// here with integer arithmetic.
u32 round_fixed(__int128 v, int mantissa_bits, int exponent_bits, int fraction_bits) {
  const int bias = (1 << (exponent_bits - 1)) - 1;
  const u32 sign = v < 0 ? 1u << (mantissa_bits + exponent_bits) : 0;
  unsigned __int128 a = v < 0 ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  if (a == 0) return sign;
  int top = 127;
  while (!((a >> top) & 1)) --top;
  // value = a * 2^-fraction_bits; keep mantissa_bits + 1 bits from `top`, or fewer below the normal range
  int exponent = std::max(top - fraction_bits, 1 - bias);
  const int shift = exponent - mantissa_bits + fraction_bits;  // bit position of the last kept bit
  unsigned __int128 kept = shift > 0 ? a >> shift : a << -shift;
  if (shift > 0) {
    const unsigned __int128 rest = a & ((static_cast<unsigned __int128>(1) << shift) - 1), half = static_cast<unsigned __int128>(1) << (shift - 1);
    if (rest > half || (rest == half && (kept & 1))) ++kept;
  }
  if (kept == (static_cast<unsigned __int128>(2) << mantissa_bits)) kept >>= 1, ++exponent;
  if (exponent > bias) return sign | ((1u << exponent_bits) - 1) << mantissa_bits;
  if (kept < (static_cast<unsigned __int128>(1) << mantissa_bits)) return sign | u32(kept);
  return sign | u32(exponent + bias) << mantissa_bits | (u32(kept) & ((1u << mantissa_bits) - 1));
}

TEST_P(EmuPacked, WmmaRoundsTheExactSumOnce) {
  std::mt19937 rng(66);
  auto any_half = [&] { return u16((rng() % 2) << 15 | (1 + rng() % 29) << 10 | (rng() & 0x3ff)); };  // finite, normal
  std::vector<u16> a(256), b(256), c16(256), d16(256);
  std::vector<float> c(256), d(256);
  for (auto& v : a) v = any_half();
  for (auto& v : b) v = any_half();
  for (int i = 0; i < 256; ++i) {
    c16[i] = any_half();
    c[i] = static_cast<float>(hv(c16[i]));
  }
  ASSERT_TRUE(launch("wmma_f32_f16", 1, wave(), device(a), device(b), device(c), device(d)));
  ASSERT_TRUE(launch("wmma_f16_low", 1, wave(), device(a), device(b), device(c16), device(d16)));
  auto fixed = [](u16 h) {  // h * 2^24 as an integer (f16 values are multiples of 2^-24)
    const int e = (h >> 10) & 31, m = h & 0x3ff;
    const __int128 v = static_cast<__int128>(e ? (m | 0x400) : m) << (e ? e - 1 : 0);
    return (h & 0x8000) ? -v : v;
  };
  int inexact = 0;
  for (int m = 0; m < 16; ++m)
    for (int n = 0; n < 16; ++n) {
      __int128 sum = fixed(c16[m * 16 + n]) << 24;  // units of 2^-48
      for (int k = 0; k < 16; ++k) sum += fixed(a[m * 16 + k]) * fixed(b[k * 16 + n]);
      const u32 want32 = round_fixed(sum, 23, 8, 48);
      u32 got32;
      std::memcpy(&got32, &d[m * 16 + n], 4);
      EXPECT_EQ(got32, want32) << m << "," << n;
      EXPECT_EQ(d16[m * 16 + n], round_fixed(sum, 10, 5, 48)) << m << "," << n;
      long double approx = 0;
      for (int k = 0; k < 16; ++k) approx += hv(a[m * 16 + k]) * hv(b[k * 16 + n]);
      inexact += static_cast<float>(approx + c[m * 16 + n]) != static_cast<float>(approx) + c[m * 16 + n];
    }
  EXPECT_GT(inexact, 0) << "the operands should make partial sums round";
}

}  // namespace
}  // namespace gpuport::emu
