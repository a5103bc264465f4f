// Hand-written gfx1100 assembly for the 16-bit and packed instructions (tests/unit/emu_asm.h), for
// what clang does not emit on demand: every op_sel/op_sel_hi/neg_lo/neg_hi combination, the half of
// the destination a 16-bit result replaces, f16 denormal modes, NaN/infinity rules, integer clamp,
// EXEC-masked lanes and wave64. Expected values come from the RDNA3 ISA guide's definitions (and
// its functional examples), computed here lane by lane with tests/unit/half_reference.h.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <random>

#include "emu_asm.h"
#include "half_reference.h"

namespace gpuport::emu::testing {
namespace {

using namespace reference;
using u32 = std::uint32_t;
using i32 = std::int32_t;

#define RUN_ASM(var, kernel, launch)                             \
  auto var = run_asm(kernel, launch);                            \
  if (!var.skip_reason.empty()) GTEST_SKIP() << var.skip_reason; \
  ASSERT_EQ(var.error, "")

// A kernel body that computes a series of results per lane and stores each into its own slot:
// out[slot * lanes + lane]. Sources: v2 = in[lane], v3 = aux[lane], v5 = in[lanes + lane].
struct Slots {
  explicit Slots(unsigned lanes) : lanes(lanes) {
    body = fmt::format(
        "  global_load_b32 v2, v1, s[4:5]\n  global_load_b32 v3, v1, s[8:9]\n  global_load_b32 v5, v1, s[4:5] offset:{}\n"
        "  s_waitcnt vmcnt(0)\n",
        4 * lanes);
  }
  void add(const std::string& code) { body += code + "\n"; }
  void store(const char* reg = "v4") {
    body += fmt::format("  global_store_b32 v1, {}, s[6:7]\n  s_add_u32 s6, s6, {}\n  s_addc_u32 s7, s7, 0\n", reg, 4 * lanes);
    ++count;
  }
  unsigned lanes, count = 0;
  std::string body;
};

u16 lo(u32 v) { return u16(v); }
u16 hi(u32 v) { return u16(v >> 16); }
u32 pack(u16 l, u16 h) { return l | u32(h) << 16; }
bool nan16(u16 h) { return half_nan(h); }
// Equal as halves, any NaN matching any NaN.
bool same16(u16 got, u16 want) { return got == want || (nan16(got) && nan16(want)); }
std::string list(std::initializer_list<int> v) {
  std::string s = "[";
  for (int x : v) s += (s.size() > 1 ? "," : "") + std::to_string(x);
  return s + "]";
}

// f16 operands: moderate values and the specials.
std::vector<u16> operands(unsigned n, unsigned seed) {
  std::vector<u16> v = {0x3c00, 0xc500, 0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x0001, 0x83ff, 0x7bff, 0x3555, 0x4b00};
  std::mt19937 rng(seed);
  while (v.size() < n) v.push_back(u16((rng() % 2) << 15 | (9 + rng() % 12) << 10 | (rng() & 0x3ff)));
  v.resize(n);
  std::shuffle(v.begin(), v.end(), rng);
  return v;
}

// An f32 per lane: small multiples of 3/8.
u32 lane_float(unsigned i) {
  const float f = static_cast<float>(int(i % 17) - 8) * 0.375f;
  u32 u;
  std::memcpy(&u, &f, 4);
  return u;
}

// ---- VOP3P source selection ----------------------------------------------------------------------
TEST(EmuPackedAsm, PackedAddEveryOpSelOpSelHiAndNeg) {
  for (bool wave64 : {false, true}) {
    SCOPED_TRACE(wave64 ? "wave64" : "wave32");
    const unsigned lanes = wave64 ? 64 : 32;
    Slots s(lanes);
    for (int combo = 0; combo < 256; ++combo)
      s.add(fmt::format("  v_pk_add_f16 v4, v2, v3 op_sel:{} op_sel_hi:{} neg_lo:{} neg_hi:{}", list({combo & 1, combo >> 1 & 1}),
                        list({combo >> 2 & 1, combo >> 3 & 1}), list({combo >> 4 & 1, combo >> 5 & 1}), list({combo >> 6 & 1, combo >> 7 & 1}))),
          s.store();
    AsmKernel k;
    k.body = s.body;
    k.wave64 = wave64;
    AsmLaunch l;
    l.threads = lanes;
    const auto x = operands(2 * lanes, 1), y = operands(2 * lanes, 2);
    for (unsigned i = 0; i < lanes; ++i) l.in.push_back(pack(x[2 * i], x[2 * i + 1])), l.aux.push_back(pack(y[2 * i], y[2 * i + 1]));
    l.in.resize(2 * lanes);
    l.out_words = 256 * lanes;
    RUN_ASM(r, k, l);
    for (int combo = 0; combo < 256; ++combo)
      for (unsigned lane = 0; lane < lanes; ++lane) {
        const u32 a = l.in[lane], b = l.aux[lane], got = r.out[combo * lanes + lane];
        auto input = [&](u32 v, int sel, int neg) { return hv(u16((sel ? hi(v) : lo(v)) ^ (neg ? 0x8000 : 0))); };
        const u16 want_lo = to_half(input(a, combo & 1, combo >> 4 & 1) + input(b, combo >> 1 & 1, combo >> 5 & 1));
        const u16 want_hi = to_half(input(a, combo >> 2 & 1, combo >> 6 & 1) + input(b, combo >> 3 & 1, combo >> 7 & 1));
        ASSERT_TRUE(same16(lo(got), want_lo) && same16(hi(got), want_hi))
            << fmt::format("combo {:#x} lane {}: a {:#010x} b {:#010x} got {:#010x} want {:#06x} {:#06x}", combo, lane, a, b, got, want_hi, want_lo);
      }
  }
}

TEST(EmuPackedAsm, PackedFmaEverySourceSelectionAndNegation) {
  const unsigned lanes = 32;
  Slots s(lanes);
  // 64 op_sel x op_sel_hi combinations, then 64 neg_lo x neg_hi combinations.
  for (int combo = 0; combo < 64; ++combo)
    s.add(fmt::format("  v_pk_fma_f16 v4, v2, v3, v5 op_sel:{} op_sel_hi:{}", list({combo & 1, combo >> 1 & 1, combo >> 2 & 1}),
                      list({combo >> 3 & 1, combo >> 4 & 1, combo >> 5 & 1}))),
        s.store();
  for (int combo = 0; combo < 64; ++combo)
    s.add(fmt::format("  v_pk_fma_f16 v4, v2, v3, v5 neg_lo:{} neg_hi:{}", list({combo & 1, combo >> 1 & 1, combo >> 2 & 1}),
                      list({combo >> 3 & 1, combo >> 4 & 1, combo >> 5 & 1}))),
        s.store();
  AsmKernel k;
  k.body = s.body;
  AsmLaunch l;
  const auto x = operands(4 * lanes, 3), y = operands(2 * lanes, 4);
  for (unsigned i = 0; i < 2 * lanes; ++i) l.in.push_back(pack(x[2 * i], x[2 * i + 1]));
  for (unsigned i = 0; i < lanes; ++i) l.aux.push_back(pack(y[2 * i], y[2 * i + 1]));
  l.out_words = 128 * lanes;
  RUN_ASM(r, k, l);
  for (int combo = 0; combo < 128; ++combo)
    for (unsigned lane = 0; lane < lanes; ++lane) {
      const u32 src[3] = {l.in[lane], l.aux[lane], l.in[lanes + lane]}, got = r.out[combo * lanes + lane];
      const int c = combo % 64;
      const int sel_lo = combo < 64 ? c & 7 : 0, sel_hi = combo < 64 ? c >> 3 : 7, neg_lo = combo < 64 ? 0 : c & 7, neg_hi = combo < 64 ? 0 : c >> 3;
      auto in = [&](int i, bool high) {
        const bool use_hi = high ? sel_hi >> i & 1 : sel_lo >> i & 1;
        const bool neg = high ? neg_hi >> i & 1 : neg_lo >> i & 1;
        return hv(u16((use_hi ? hi(src[i]) : lo(src[i])) ^ (neg ? 0x8000 : 0)));
      };
      const u16 want_lo = to_half(in(0, false) * in(1, false) + in(2, false)), want_hi = to_half(in(0, true) * in(1, true) + in(2, true));
      ASSERT_TRUE(same16(lo(got), want_lo) && same16(hi(got), want_hi))
          << fmt::format("combo {} lane {}: got {:#010x} want {:#06x} {:#06x}", combo, lane, got, want_hi, want_lo);
    }
}

TEST(EmuPackedAsm, InlineConstantsInSixteenBitAndPackedMath) {
  // Inline constants (LLVM's AMDGPU backend documents the hardware): integers are sign-extended to
  // 32 bits; float constants are f16 bits in the low half for f16 operands, f32 bits otherwise.
  const unsigned lanes = 32;
  Slots s(lanes);
  s.add("  v_pk_add_f16 v4, v2, 1.0"), s.store();                       // high half + 0
  s.add("  v_pk_add_f16 v4, v2, 1.0 op_sel_hi:[1,0]"), s.store();      // both halves + 1.0
  s.add("  v_pk_add_u16 v4, v2, -1"), s.store();                       // both halves - 1
  s.add("  v_pk_add_u16 v4, v2, 1.0"), s.store();                      // 0x3f800000: high + 0x3f80
  s.add("  v_pk_mul_f16 v4, v2, 0x40003c00"), s.store();               // low * 1, high * 2
  s.add("  v_pk_fma_f16 v4, v2, 2.0, -1.0 op_sel_hi:[1,0,0]"), s.store();
  s.add("  v_mov_b32 v4, 0x12345678\n  v_add_f16_e32 v4, 0.5, v2"), s.store();
  s.add("  v_mov_b32 v4, 0x12345678\n  v_add_nc_u16 v4, v2, -2"), s.store();
  s.add("  v_mov_b32 v4, 0x12345678\n  v_fmamk_f16 v4, v2, 0x4200, v3"), s.store();
  s.add("  v_mov_b32 v4, 0x12345678\n  v_fmaak_f16 v4, v2, v3, 0xbc00"), s.store();
  AsmKernel k;
  k.body = s.body;
  AsmLaunch l;
  const auto x = operands(2 * lanes, 5), y = operands(lanes, 6);
  for (unsigned i = 0; i < lanes; ++i) l.in.push_back(pack(x[2 * i], x[2 * i + 1])), l.aux.push_back(y[i]);
  l.in.resize(2 * lanes);
  l.out_words = s.count * lanes;
  RUN_ASM(r, k, l);
  for (unsigned lane = 0; lane < lanes; ++lane) {
    const u32 a = l.in[lane], b = l.aux[lane];
    auto got = [&](int slot) { return r.out[slot * lanes + lane]; };
    SCOPED_TRACE(fmt::format("lane {}: a {:#010x} b {:#010x}", lane, a, b));
    EXPECT_TRUE(same16(lo(got(0)), to_half(hv(lo(a)) + 1)) && same16(hi(got(0)), to_half(hv(hi(a)) + 0.0L)));
    EXPECT_TRUE(same16(lo(got(1)), to_half(hv(lo(a)) + 1)) && same16(hi(got(1)), to_half(hv(hi(a)) + 1)));
    EXPECT_EQ(got(2), pack(u16(lo(a) - 1), u16(hi(a) - 1)));
    EXPECT_EQ(got(3), pack(lo(a), u16(hi(a) + 0x3f80)));
    EXPECT_TRUE(same16(lo(got(4)), to_half(hv(lo(a)) * 1)) && same16(hi(got(4)), to_half(hv(hi(a)) * 2)));
    EXPECT_TRUE(same16(lo(got(5)), to_half(hv(lo(a)) * 2 - 1)) && same16(hi(got(5)), to_half(hv(hi(a)) * 2 - 1)));
    EXPECT_EQ(hi(got(6)), 0x1234);
    EXPECT_TRUE(same16(lo(got(6)), to_half(hv(lo(a)) + 0.5L)));
    EXPECT_EQ(got(7), pack(u16(lo(a) - 2), 0x1234));
    EXPECT_EQ(hi(got(8)), 0x1234);
    EXPECT_TRUE(same16(lo(got(8)), to_half(hv(lo(a)) * 3 + hv(lo(b)))));
    EXPECT_TRUE(same16(lo(got(9)), to_half(hv(lo(a)) * hv(lo(b)) - 1)));
  }
}

// ---- 16-bit results: the half they replace ----------------------------------------------------------
TEST(EmuPackedAsm, SixteenBitResultsReplaceOnlyTheirHalf) {
  // ISA 7.1 (OPSEL): dest_vgpr = {prev[31:16], result} for op_sel[3] = 0, {result, prev[15:0]} for 1.
  // VOP1/VOP2 16-bit forms write the low half and keep the high half too.
  const unsigned lanes = 32;
  Slots s(lanes);
  const char* init = "  v_mov_b32 v4, 0x12345678\n";
  s.add(std::string(init) + "  v_add_f16_e32 v4, v2, v3"), s.store();
  s.add(std::string(init) + "  v_fma_f16 v4, v2, v3, v3 op_sel:[1,1,0,1]"), s.store();
  s.add(std::string(init) + "  v_fma_f16 v4, v2, v3, v5 op_sel:[0,1,1,0]"), s.store();
  s.add(std::string(init) + "  v_add_nc_u16 v4, v2, v3 op_sel:[0,1,1]"), s.store();
  s.add(std::string(init) + "  v_max3_i16 v4, v2, v3, v3 op_sel:[1,1,1,0]"), s.store();
  s.add(std::string(init) + "  v_cvt_f16_f32_e32 v4, v5"), s.store();
  s.add(std::string(init) + "  v_fma_mixlo_f16 v4, v2, v3, 0 op_sel_hi:[1,1,0]"), s.store();
  s.add(std::string(init) + "  v_fma_mixhi_f16 v4, v2, v3, 0 op_sel:[1,1,0] op_sel_hi:[1,1,0]"), s.store();
  s.add(std::string(init) + "  v_mad_u32_u16 v4, v2, v3, 7 op_sel:[1,0,0,0]"), s.store();
  s.add(std::string(init) + "  v_pack_b32_f16 v4, v2, -v3 op_sel:[1,0,0]"), s.store();
  s.add(std::string(init) + "  v_cvt_f32_f16_e32 v4, v2"), s.store();
  s.add(std::string(init) + "  s_mov_b32 s11, 0x55555555\n  v_cndmask_b16 v4, v2, v3, s11"), s.store();
  s.add(std::string(init) + "  v_dot2_f16_f16 v4, v2, v3, v3 op_sel:[0,0,1,1]"), s.store();
  s.add(std::string(init) + "  v_sub_nc_i16 v4, v2, v3 op_sel:[1,0,1]"), s.store();
  AsmKernel k;
  k.body = s.body;
  AsmLaunch l;
  std::mt19937 rng(7);
  // Small multiples of 1/4: every result here is exact in f16.
  auto small = [&] { return to_half(static_cast<long double>(int(rng() % 65) - 32) / 4); };
  for (unsigned i = 0; i < lanes; ++i) l.in.push_back(pack(small(), small())), l.aux.push_back(pack(small(), small()));
  for (unsigned i = 0; i < lanes; ++i) l.in.push_back(pack(small(), small()));
  l.out_words = s.count * lanes;
  RUN_ASM(r, k, l);
  for (unsigned lane = 0; lane < lanes; ++lane) {
    const u32 a = l.in[lane], b = l.aux[lane], c = l.in[lanes + lane];
    auto got = [&](int slot) { return r.out[slot * lanes + lane]; };
    SCOPED_TRACE(fmt::format("lane {}: a {:#010x} b {:#010x} c {:#010x}", lane, a, b, c));
    EXPECT_EQ(got(0), pack(to_half(hv(lo(a)) + hv(lo(b))), 0x1234));
    EXPECT_EQ(got(1), pack(0x5678, to_half(hv(hi(a)) * hv(hi(b)) + hv(lo(b)))));
    EXPECT_EQ(got(2), pack(to_half(hv(lo(a)) * hv(hi(b)) + hv(hi(c))), 0x1234));
    EXPECT_EQ(got(3), pack(0x5678, u16(lo(a) + hi(b))));
    EXPECT_EQ(got(4), pack(u16(std::max<std::int16_t>(std::int16_t(hi(a)), std::int16_t(hi(b)))), 0x1234));  // max3(a.hi, b.hi, b.hi)
    float cf;
    std::memcpy(&cf, &c, 4);
    EXPECT_EQ(got(5), pack(to_half(cf), 0x1234));
    EXPECT_EQ(got(6), pack(to_half(hv(lo(a)) * hv(lo(b)) + 0.0L), 0x1234));  // + (+0): -0 becomes +0
    EXPECT_EQ(got(7), pack(0x5678, to_half(hv(hi(a)) * hv(hi(b)) + 0.0L)));
    EXPECT_EQ(got(8), u32(hi(a)) * lo(b) + 7);
    EXPECT_EQ(got(9), pack(hi(a), u16(lo(b) ^ 0x8000)));
    float fa = static_cast<float>(hv(lo(a)));
    u32 fa_bits;
    std::memcpy(&fa_bits, &fa, 4);
    EXPECT_EQ(got(10), fa_bits);
    EXPECT_EQ(got(11), pack(lane % 2 == 0 ? lo(b) : lo(a), 0x1234));
    EXPECT_EQ(got(12), pack(0x5678, to_half(hv(lo(a)) * hv(lo(b)) + hv(hi(a)) * hv(hi(b)) + hv(hi(b)))));
    EXPECT_EQ(got(13), pack(0x5678, u16(hi(a) - lo(b))));
  }
}

// ---- f16 denormals under the four FP_DENORM settings ------------------------------------------------
TEST(EmuPackedAsm, HalfDenormalModes) {
  // MODE.FP_DENORM[7:6] for f16/f64 (ISA 7.2.4): bit 0 keeps input denormals, bit 1 output ones;
  // a flushed value keeps its sign. f32 stays in mode 3 (no effect on the f16 results).
  struct Pair {
    u16 a, b;
  };
  const Pair pairs[] = {{0x0001, 0x3c00}, {0x8001, 0x3c00}, {0x0400, 0x3800}, {0x8400, 0x3800}, {0x0200, 0x4400}, {0x03ff, 0x0001},
                        {0x3c00, 0x3c00}, {0x0200, 0x0000}};
  const unsigned lanes = 32, n = std::size(pairs);
  for (unsigned mode = 0; mode < 4; ++mode) {
    SCOPED_TRACE(fmt::format("FP_DENORM 16/64 = {}", mode));
    Slots s(lanes);
    s.add("  v_mul_f16_e32 v4, v2, v3"), s.store();
    s.add("  v_pk_mul_f16 v4, v2, v3"), s.store();
    s.add("  v_fma_f16 v4, v2, v3, 0"), s.store();
    s.add("  v_add_f16_e32 v4, v2, v3"), s.store();
    s.add("  v_cvt_f32_f16_e32 v4, v2"), s.store();
    s.add("  v_max_f16_e32 v4, 0x8000, v2"), s.store();
    s.add("  v_fma_mixlo_f16 v4, v2, v3, 0 op_sel_hi:[1,1,0]"), s.store();
    AsmKernel k;
    k.body = s.body;
    k.float_denorm_16_64 = mode;
    AsmLaunch l;
    for (unsigned i = 0; i < lanes; ++i) l.in.push_back(pack(pairs[i % n].a, pairs[i % n].a)), l.aux.push_back(pack(pairs[i % n].b, pairs[i % n].b));
    l.in.resize(2 * lanes);
    l.out_words = s.count * lanes;
    RUN_ASM(r, k, l);
    const bool keep_in = mode & 1, keep_out = mode & 2;
    auto denormal = [](u16 h) { return (h & 0x7c00) == 0 && (h & 0x3ff); };
    auto input = [&](u16 h) { return hv(!keep_in && denormal(h) ? u16(h & 0x8000) : h); };
    auto output = [&](long double v) {
      const u16 h = to_half(v);
      return !keep_out && denormal(h) ? u16(h & 0x8000) : h;
    };
    for (unsigned lane = 0; lane < lanes; ++lane) {
      const u16 a = pairs[lane % n].a, b = pairs[lane % n].b;
      auto got = [&](int slot) { return r.out[slot * lanes + lane]; };
      SCOPED_TRACE(fmt::format("lane {}: a {:#06x} b {:#06x}", lane, a, b));
      EXPECT_EQ(lo(got(0)), output(input(a) * input(b)));
      EXPECT_EQ(got(1), pack(output(input(a) * input(b)), output(input(a) * input(b))));
      EXPECT_EQ(lo(got(2)), output(input(a) * input(b) + 0.0L));  // fma with +0: -0 becomes +0
      EXPECT_EQ(lo(got(3)), output(input(a) + input(b)));
      const float widened = static_cast<float>(input(a));  // a normal f32: the f32 mode keeps it
      u32 widened_bits;
      std::memcpy(&widened_bits, &widened, 4);
      EXPECT_EQ(got(4), widened_bits);
      // min/max: only the input mode applies (ISA note on V_MAX_F16); -0 < +0.
      const long double m = input(a);
      EXPECT_EQ(lo(got(5)), m == 0 ? u16(std::signbit(m) ? 0x8000 : 0) : to_half(m > 0 ? m : -0.0L));
      EXPECT_EQ(lo(got(6)), output(input(a) * input(b) + 0.0L));
    }
  }
}

// ---- NaN, infinity and the ISA's functional examples --------------------------------------------------
TEST(EmuPackedAsm, TranscendentalsMatchTheIsaExamples) {
  struct Example {
    const char* op;
    std::vector<std::pair<u16, u16>> cases;  // input -> output, from the ISA guide's V_*_F16 entries
  };
  const Example examples[] = {
      {"v_rcp_f16", {{0xfc00, 0x8000}, {0xc000, 0xb800}, {0x8000, 0xfc00}, {0x0000, 0x7c00}, {0x7c00, 0x0000}}},
      {"v_sqrt_f16", {{0xfc00, 0xfe00}, {0x8000, 0x8000}, {0x0000, 0x0000}, {0x4400, 0x4000}, {0x7c00, 0x7c00}}},
      {"v_rsq_f16", {{0xfc00, 0xfe00}, {0x8000, 0xfc00}, {0x0000, 0x7c00}, {0x4400, 0x3800}, {0x7c00, 0x0000}}},
      {"v_log_f16", {{0xfc00, 0xfe00}, {0xbc00, 0xfe00}, {0x8000, 0xfc00}, {0x0000, 0xfc00}, {0x3c00, 0x0000}, {0x7c00, 0x7c00}}},
      {"v_exp_f16", {{0xfc00, 0x0000}, {0x8000, 0x3c00}, {0x7c00, 0x7c00}}},
      {"v_sin_f16", {{0xfc00, 0xfe00}, {0xfbff, 0x0000}, {0x8000, 0x8000}, {0x3400, 0x3c00}, {0x7bff, 0x0000}, {0x7c00, 0xfe00}}},
      {"v_cos_f16", {{0xfc00, 0xfe00}, {0xfbff, 0x3c00}, {0x8000, 0x3c00}, {0x3400, 0x0000}, {0x7bff, 0x3c00}, {0x7c00, 0xfe00}}},
  };
  for (const Example& e : examples) {
    SCOPED_TRACE(e.op);
    Slots s(32);
    s.add(fmt::format("  v_mov_b32 v4, v2\n  {} v4, v2", e.op)), s.store();
    AsmKernel k;
    k.body = s.body;
    AsmLaunch l;
    for (unsigned i = 0; i < 32; ++i) l.in.push_back(0x5a5a0000u | e.cases[i % e.cases.size()].first);
    l.in.resize(64);
    l.aux.resize(32);
    RUN_ASM(r, k, l);
    for (unsigned lane = 0; lane < 32; ++lane) {
      const auto& [in, out] = e.cases[lane % e.cases.size()];
      EXPECT_EQ(r.out[lane], 0x5a5a0000u | out) << fmt::format("{}({:#06x})", e.op, in);
    }
  }
}

TEST(EmuPackedAsm, NaNInfinityMinMaxAndDivisionFixup) {
  const unsigned lanes = 32;
  struct Case {
    u16 a, b;
  };
  // sNaN 0x7d00 quiets to 0x7f00; qNaN 0x7e00.
  const Case cases[] = {{0x7d00, 0x3c00}, {0x3c00, 0x7d00}, {0x7e00, 0x3c00}, {0x3c00, 0x7e00}, {0x0000, 0x8000}, {0x8000, 0x0000},
                        {0x7c00, 0xfc00}, {0xc000, 0x4000}, {0x7c00, 0x3c00}};
  for (bool ieee : {true, false}) {
    SCOPED_TRACE(ieee ? "IEEE mode" : "IEEE off");
    Slots s(lanes);
    s.add("  v_max_f16_e32 v4, v2, v3"), s.store();
    s.add("  v_min_f16_e32 v4, v2, v3"), s.store();
    s.add("  v_add_f16_e32 v4, v2, v3"), s.store();
    s.add("  v_med3_f16 v4, v2, v3, 0"), s.store();
    AsmKernel k;
    k.body = s.body;
    k.ieee_mode = ieee;
    AsmLaunch l;
    const unsigned n = std::size(cases);
    for (unsigned i = 0; i < lanes; ++i) l.in.push_back(cases[i % n].a), l.aux.push_back(cases[i % n].b);
    l.in.resize(2 * lanes);
    l.out_words = s.count * lanes;
    RUN_ASM(r, k, l);
    for (unsigned lane = 0; lane < lanes; ++lane) {
      const u16 a = cases[lane % n].a, b = cases[lane % n].b;
      auto got = [&](int slot) { return lo(r.out[slot * lanes + lane]); };
      SCOPED_TRACE(fmt::format("lane {}: a {:#06x} b {:#06x}", lane, a, b));
      auto snan = [](u16 h) { return nan16(h) && !(h & 0x200); };
      // V_MAX_F16 / V_MIN_F16 (ISA 16.7): in IEEE mode a signaling NaN operand is returned quieted,
      // a quiet NaN yields the other operand; otherwise any NaN yields the other operand. +0 > -0.
      auto pick = [&](bool max) -> u16 {
        if (ieee && snan(a)) return a | 0x200;
        if (ieee && snan(b)) return b | 0x200;
        if (nan16(b)) return a;
        if (nan16(a)) return b;
        const long double x = hv(a), y = hv(b);
        if (x == y) return (max ? !(a & 0x8000) : (a & 0x8000)) ? a : b;
        return (max ? x > y : x < y) ? a : b;
      };
      EXPECT_EQ(got(0), pick(true));
      EXPECT_EQ(got(1), pick(false));
      EXPECT_TRUE(same16(got(2), to_half(hv(a) + hv(b))));
      if (std::isinf(hv(a)) && std::isinf(hv(b)) && hv(a) != hv(b)) {
        EXPECT_EQ(got(2), 0xfe00) << "inf - inf";
      }
    }
  }
  // V_DIV_FIXUP_F16 d, quotient, denominator, numerator: the special cases of its pseudocode.
  struct Fixup {
    u16 q, den, num, want;
  };
  const Fixup fixups[] = {{0x3c00, 0x0000, 0x0000, 0xfe00}, {0x3c00, 0x7c00, 0xfc00, 0xfe00}, {0x3c00, 0x0000, 0x4500, 0x7c00},
                          {0x3c00, 0x8000, 0x4500, 0xfc00}, {0x3c00, 0x7c00, 0x4500, 0x0000}, {0x3c00, 0xfc00, 0x4500, 0x8000},
                          {0x4000, 0x4400, 0xc800, 0xc000}, {0xc000, 0xc400, 0xc800, 0x4000}, {0x3c00, 0x7d00, 0x3c00, 0x7f00},
                          {0x3c00, 0x3c00, 0xfd01, 0xff01}, {0x3c00, 0x4000, 0x0000, 0x0000}};
  Slots s(lanes);
  s.add("  v_div_fixup_f16 v4, v2, v3, v5"), s.store();
  AsmKernel k;
  k.body = s.body;
  AsmLaunch l;
  const unsigned n = std::size(fixups);
  l.in.resize(2 * lanes);
  for (unsigned i = 0; i < lanes; ++i) l.in[i] = fixups[i % n].q, l.aux.push_back(fixups[i % n].den), l.in[lanes + i] = fixups[i % n].num;
  RUN_ASM(r, k, l);
  for (unsigned lane = 0; lane < lanes; ++lane)
    EXPECT_EQ(lo(r.out[lane]), fixups[lane % n].want) << fmt::format("fixup({:#06x}, {:#06x}, {:#06x})", fixups[lane % n].q, fixups[lane % n].den,
                                                                  fixups[lane % n].num);
}

TEST(EmuPackedAsm, ClampAndOutputModifiersOnHalves) {
  // CLAMP limits to [0, 1] with -0 to +0, and NaN to 0 when DX10_CLAMP is set. OMOD applies only
  // with IEEE mode off and output denormals flushed (ISA 7.2.3.1).
  const u16 inputs[] = {0x7e00, 0x4000, 0xc200, 0x8000, 0x3800, 0x3c00, 0x7c00, 0x0001};
  const unsigned lanes = 32, n = std::size(inputs);
  struct Config {
    bool dx10, ieee;
    unsigned denorm;
  };
  for (const Config c : {Config{true, true, 3}, Config{false, true, 3}, Config{true, false, 0}, Config{true, false, 3}}) {
    SCOPED_TRACE(fmt::format("dx10 {} ieee {} denorm {}", c.dx10, c.ieee, c.denorm));
    Slots s(lanes);
    s.add("  v_add_f16_e64 v4, v2, 0 clamp"), s.store();
    s.add("  v_add_f16_e64 v4, v2, 0 mul:2"), s.store();
    s.add("  v_pk_add_f16 v4, v2, 0 clamp"), s.store();
    AsmKernel k;
    k.body = s.body;
    k.dx10_clamp = c.dx10;
    k.ieee_mode = c.ieee;
    k.float_denorm_16_64 = c.denorm;
    AsmLaunch l;
    for (unsigned i = 0; i < lanes; ++i) l.in.push_back(pack(inputs[i % n], inputs[(i + 3) % n]));
    l.in.resize(2 * lanes);
    l.aux.resize(lanes);
    l.out_words = s.count * lanes;
    RUN_ASM(r, k, l);
    auto clamped = [&](u16 h) -> u16 {
      if (nan16(h)) return c.dx10 ? 0 : h;
      if (h & 0x8000) return 0;
      return hv(h) > 1 ? 0x3c00 : h;
    };
    auto plus_zero = [&](u16 h) {  // h + 0, input denormals flushed in mode 0
      const bool flush = c.denorm == 0 && (h & 0x7c00) == 0;
      return to_half(hv(flush ? u16(h & 0x8000) : h) + 0.0L);
    };
    for (unsigned lane = 0; lane < lanes; ++lane) {
      const u16 x = inputs[lane % n], y = inputs[(lane + 3) % n];
      auto got = [&](int slot) { return r.out[slot * lanes + lane]; };
      SCOPED_TRACE(fmt::format("lane {}: {:#06x} {:#06x}", lane, x, y));
      EXPECT_TRUE(same16(lo(got(0)), clamped(plus_zero(x))));
      const bool omod = !c.ieee && c.denorm == 0;
      u16 scaled = omod ? to_half(hv(plus_zero(x)) * 2) : plus_zero(x);
      if (c.denorm == 0 && (scaled & 0x7c00) == 0) scaled &= 0x8000;  // output denormals flushed
      if (omod && scaled == 0x8000) scaled = 0;
      EXPECT_TRUE(same16(lo(got(1)), scaled));
      EXPECT_TRUE(same16(lo(got(2)), clamped(plus_zero(x))) && same16(hi(got(2)), clamped(plus_zero(y))));
    }
  }
}

// ---- integer clamp ---------------------------------------------------------------------------------
TEST(EmuPackedAsm, IntegerClampSaturatesSixteenBitResults) {
  const unsigned lanes = 32;
  struct Op {
    const char* code;
    std::function<long long(long long, long long, long long)> f;
    bool is_signed;
  };
  const Op ops[] = {
      {"v_pk_add_u16 v4, v2, v3", [](long long a, long long b, long long) { return a + b; }, false},
      {"v_pk_sub_u16 v4, v2, v3", [](long long a, long long b, long long) { return a - b; }, false},
      {"v_pk_add_i16 v4, v2, v3", [](long long a, long long b, long long) { return a + b; }, true},
      {"v_pk_sub_i16 v4, v2, v3", [](long long a, long long b, long long) { return a - b; }, true},
      {"v_pk_mad_u16 v4, v2, v3, v5", [](long long a, long long b, long long c) { return a * b + c; }, false},
      {"v_pk_mad_i16 v4, v2, v3, v5", [](long long a, long long b, long long c) { return a * b + c; }, true},
      {"v_pk_mul_lo_u16 v4, v2, v3", [](long long a, long long b, long long) { return a * b; }, false},
  };
  const char* scalar_ops[][2] = {{"v_add_nc_u16", "u"}, {"v_add_nc_i16", "i"}, {"v_sub_nc_u16", "u"}, {"v_sub_nc_i16", "i"}};
  Slots s(lanes);
  for (const Op& o : ops) {
    s.add(std::string("  ") + o.code), s.store();
    s.add(std::string("  ") + o.code + " clamp"), s.store();
  }
  for (auto& o : scalar_ops) {
    s.add(fmt::format("  v_mov_b32 v4, 0x12345678\n  {} v4, v2, v3 clamp", o[0])), s.store();
  }
  s.add("  v_mad_u16 v4, v2, v3, v5 clamp"), s.store();
  s.add("  v_mad_i16 v4, v2, v3, v5 clamp"), s.store();
  AsmKernel k;
  k.body = s.body;
  AsmLaunch l;
  std::mt19937 rng(9);
  const u16 edge[] = {0, 1, 0x7fff, 0x8000, 0xffff, 0x8001, 0x7ffe, 300};
  auto value = [&](unsigned i) { return i < 64 ? edge[(i * 3 + i / 8) % 8] : u16(rng()); };
  for (unsigned i = 0; i < lanes; ++i) l.in.push_back(pack(value(i), value(i + 5))), l.aux.push_back(pack(value(i + 2), value(i + 7)));
  for (unsigned i = 0; i < lanes; ++i) l.in.push_back(pack(value(i + 1), u16(rng())));
  l.out_words = s.count * lanes;
  RUN_ASM(r, k, l);
  auto half_value = [](u16 v, bool is_signed) { return is_signed ? (long long)std::int16_t(v) : (long long)v; };
  auto saturate = [](long long v, bool is_signed) {
    return u16(is_signed ? std::clamp<long long>(v, -32768, 32767) : std::clamp<long long>(v, 0, 65535));
  };
  for (unsigned lane = 0; lane < lanes; ++lane) {
    const u32 a = l.in[lane], b = l.aux[lane], c = l.in[lanes + lane];
    SCOPED_TRACE(fmt::format("lane {}: a {:#010x} b {:#010x} c {:#010x}", lane, a, b, c));
    int slot = 0;
    for (const Op& o : ops) {
      for (bool clamp : {false, true}) {
        const u32 got = r.out[slot++ * lanes + lane];
        for (int h = 0; h < 2; ++h) {
          const long long v = o.f(half_value(u16(a >> 16 * h), o.is_signed), half_value(u16(b >> 16 * h), o.is_signed),
                                  half_value(u16(c >> 16 * h), o.is_signed));
          EXPECT_EQ(u16(got >> 16 * h), clamp ? saturate(v, o.is_signed) : u16(v)) << o.code << (clamp ? " clamp" : "") << " half " << h;
        }
      }
    }
    for (auto& o : scalar_ops) {
      const bool is_signed = o[1][0] == 'i';
      const std::string name = o[0];
      const long long x = half_value(lo(a), is_signed), y = half_value(lo(b), is_signed);
      const long long v = name.find("add") != std::string::npos ? x + y : name.find("sub") != std::string::npos ? x - y : x * y;
      EXPECT_EQ(r.out[slot++ * lanes + lane], pack(saturate(v, is_signed), 0x1234)) << name;
    }
    EXPECT_EQ(lo(r.out[slot++ * lanes + lane]), saturate((long long)lo(a) * lo(b) + lo(c), false)) << "v_mad_u16";
    EXPECT_EQ(lo(r.out[slot++ * lanes + lane]), saturate(half_value(lo(a), true) * half_value(lo(b), true) + half_value(lo(c), true), true))
        << "v_mad_i16";
  }
}

// ---- EXEC, wave64 and WMMA ---------------------------------------------------------------------------
TEST(EmuPackedAsm, MaskedLanesKeepTheirValuesAndWmmaIgnoresExec) {
  for (bool wave64 : {false, true}) {
    SCOPED_TRACE(wave64 ? "wave64" : "wave32");
    const unsigned lanes = wave64 ? 64 : 32;
    Slots s(lanes);
    // Only odd lanes run the 16-bit and packed forms; even lanes keep 0x12345678.
    const std::string odd = wave64 ? "  v_and_b32 v6, 1, v0\n  v_cmpx_eq_u32 1, v6\n" : "  v_and_b32 v6, 1, v0\n  v_cmpx_eq_u32 1, v6\n";
    const std::string all = wave64 ? "  s_mov_b64 exec, -1\n" : "  s_mov_b32 exec_lo, -1\n";
    for (const char* code : {"v_pk_fma_f16 v4, v2, v3, v5 op_sel:[1,0,0] op_sel_hi:[0,1,1]", "v_fma_f16 v4, v2, v3, v5 op_sel:[0,0,0,1]",
                             "v_dot2_f32_f16 v4, v2, v3, v5", "v_fma_mix_f32 v4, v2, v3, v5 op_sel_hi:[1,1,0]", "v_add_f16_e32 v4, v2, v3"})
      s.add("  v_mov_b32 v4, 0x12345678\n" + odd + "  " + code + "\n" + all), s.store();
    AsmKernel k;
    k.body = s.body;
    k.wave64 = wave64;
    AsmLaunch l;
    l.threads = lanes;
    std::mt19937 rng(10);
    auto small = [&] { return to_half(static_cast<long double>(int(rng() % 65) - 32) / 4); };
    for (unsigned i = 0; i < lanes; ++i) l.in.push_back(pack(small(), small())), l.aux.push_back(pack(small(), small()));
    for (unsigned i = 0; i < lanes; ++i) l.in.push_back(lane_float(i));
    l.out_words = s.count * lanes;
    RUN_ASM(r, k, l);
    for (unsigned lane = 0; lane < lanes; ++lane) {
      const u32 a = l.in[lane], b = l.aux[lane], c = l.in[lanes + lane];
      float cf;
      std::memcpy(&cf, &c, 4);
      auto got = [&](int slot) { return r.out[slot * lanes + lane]; };
      SCOPED_TRACE(fmt::format("lane {}", lane));
      if (lane % 2 == 0) {
        for (unsigned slot = 0; slot < s.count; ++slot) EXPECT_EQ(got(slot), 0x12345678u) << "slot " << slot;
        continue;
      }
      EXPECT_EQ(got(0), pack(to_half(hv(hi(a)) * hv(lo(b)) + hv(lo(c))), to_half(hv(lo(a)) * hv(hi(b)) + hv(hi(c)))));
      EXPECT_EQ(got(1), pack(0x5678, to_half(hv(lo(a)) * hv(lo(b)) + hv(lo(c)))));
      const float dot = static_cast<float>(static_cast<float>(cf + hv(lo(a)) * hv(lo(b))) + hv(hi(a)) * hv(hi(b)));
      u32 dot_bits;
      std::memcpy(&dot_bits, &dot, 4);
      EXPECT_EQ(got(2), dot_bits);
      const float mix = std::fma(static_cast<float>(hv(lo(a))), static_cast<float>(hv(lo(b))), cf);
      u32 mix_bits;
      std::memcpy(&mix_bits, &mix, 4);
      EXPECT_EQ(got(3), mix_bits);
      EXPECT_EQ(got(4), pack(to_half(hv(lo(a)) + hv(lo(b))), 0x1234));
    }
  }
}

}  // namespace
}  // namespace gpuport::emu::testing
