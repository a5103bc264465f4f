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

TEST(EmuPackedAsm, WmmaReadsNegAndOpSelAndWritesEveryLaneWhateverExec) {
  // ISA 7.9 and 16.10: EXEC is treated as all ones; NEG/NEG_HI negate the low/high f16 halves of A
  // (bit 0) and B (bit 1), {NEG_HI[2], NEG[2]} are {ABS, NEG} on C; OPSEL[2] picks the halves of C
  // and D. A: lane m holds row m (K along the VGPRs, two per VGPR); B: lane n holds column n; C/D:
  // element (m, n) in VGPR m / (wave/16), lane n + 16 * (m % (wave/16)).
  for (bool wave64 : {false, true}) {
    SCOPED_TRACE(wave64 ? "wave64" : "wave32");
    const unsigned lanes = wave64 ? 64 : 32, rows_per_vgpr = lanes / 16, c_vgprs = 16 / rows_per_vgpr;
    std::mt19937 rng(20);
    long double a[16][16], b[16][16], c[16][16];
    for (auto& row : a)
      for (auto& v : row) v = int(rng() % 5) - 2;
    for (auto& row : b)
      for (auto& v : row) v = int(rng() % 5) - 2;
    for (auto& row : c)
      for (auto& v : row) v = int(rng() % 201) - 100;
    AsmLaunch l;
    l.threads = lanes;
    l.in.assign(8 * lanes + 8 * lanes, 0);  // A registers, then C registers, 8 words per lane
    l.aux.assign(8 * lanes, 0);
    for (unsigned lane = 0; lane < lanes; ++lane)
      for (unsigned j = 0; j < 8; ++j) {
        l.in[8 * lane + j] = pack(to_half(a[lane % 16][2 * j]), to_half(a[lane % 16][2 * j + 1]));
        l.aux[8 * lane + j] = pack(to_half(b[2 * j][lane % 16]), to_half(b[2 * j + 1][lane % 16]));
      }
    for (unsigned lane = 0; lane < lanes; ++lane)
      for (unsigned v = 0; v < c_vgprs; ++v) l.in[8 * lanes + 8 * lane + v] = pack(0x1111, to_half(c[v * rows_per_vgpr + lane / 16][lane % 16]));
    const std::string d = wave64 ? "v[24:27]" : "v[24:31]";
    AsmKernel k;
    k.wave64 = wave64;
    k.body = fmt::format(R"(
  v_lshlrev_b32 v6, 5, v0
  global_load_b128 v[8:11], v6, s[4:5]
  global_load_b128 v[12:15], v6, s[4:5] offset:16
  global_load_b128 v[16:19], v6, s[8:9]
  global_load_b128 v[20:23], v6, s[8:9] offset:16
  v_add_nc_u32 v7, {0}, v6
  global_load_b128 v[24:27], v7, s[4:5]
  global_load_b128 v[28:31], v7, s[4:5] offset:16
  s_waitcnt vmcnt(0)
  {1}
  v_wmma_f16_16x16x16_f16 {2}, v[8:15], v[16:23], {2} op_sel:[0,0,1] neg_lo:[1,0,1] neg_hi:[0,1,1]
  v_wmma_f32_16x16x16_f16 {4}, v[8:15], v[16:23], 1.0
  {3}
  global_store_b128 v6, v[24:27], s[6:7]
  global_store_b128 v6, v[28:31], s[6:7] offset:16
  v_add_nc_u32 v7, {0}, v6
  global_store_b128 v7, v[32:35], s[6:7]
  global_store_b128 v7, v[36:39], s[6:7] offset:16
)",
                         32 * lanes, wave64 ? "s_mov_b64 exec, 0xff" : "s_mov_b32 exec_lo, 0x8001", d, wave64 ? "s_mov_b64 exec, -1" : "s_mov_b32 exec_lo, -1",
                         wave64 ? "v[32:35]" : "v[32:39]");
    l.out_words = 16 * lanes;
    RUN_ASM(r, k, l);
    for (unsigned m = 0; m < 16; ++m)
      for (unsigned n = 0; n < 16; ++n) {
        long double sum = -std::fabs(c[m][n]), plain = 1;
        for (unsigned kk = 0; kk < 16; ++kk) {
          sum += (kk % 2 == 0 ? -a[m][kk] : a[m][kk]) * (kk % 2 == 1 ? -b[kk][n] : b[kk][n]);
          plain += a[m][kk] * b[kk][n];
        }
        const unsigned v = m / rows_per_vgpr, lane = n + 16 * (m % rows_per_vgpr);
        EXPECT_EQ(hi(r.out[8 * lane + v]), to_half(sum)) << m << "," << n;
        const float want = static_cast<float>(plain);
        u32 want_bits;
        std::memcpy(&want_bits, &want, 4);
        EXPECT_EQ(r.out[8 * lanes + 8 * lane + v], want_bits) << m << "," << n << " (C = 1.0)";
      }
  }
}

TEST(EmuPackedAsm, DotProductsWithSourceSelectionNegationAndDualIssue) {
  const unsigned lanes = 32;
  Slots s(lanes);
  s.add("  v_dot2_f32_f16 v4, v2, v3, v5 op_sel:[1,0,0] op_sel_hi:[0,1,1] neg_lo:[1,0,1] neg_hi:[0,1,0]"), s.store();
  s.add("  v_mov_b32 v4, v5\n  v_dot2acc_f32_f16 v4, v2, v3"), s.store();
  s.add("  v_mov_b32 v4, v5\n  v_dot2acc_f32_f16 v4, 2.0, v3"), s.store();  // the constant in both halves
  s.add("  v_mov_b32 v4, v5\n  v_mov_b32 v7, 0\n  v_dual_dot2acc_f32_f16 v4, v2, v3 :: v_dual_mov_b32 v7, v4"), s.store(), s.store("v7");
  s.add("  v_dot2_f32_bf16 v4, v2, v3, v5 neg_lo:[0,1,0]"), s.store();
  s.add("  v_dot4_i32_iu8 v4, v2, v3, v5 neg_lo:[0,1,0] clamp"), s.store();
  s.add("  v_dot8_i32_iu4 v4, v2, v3, v5 neg_lo:[1,0,0]"), s.store();
  s.add("  v_dot4_u32_u8 v4, v2, v3, v5"), s.store();
  AsmKernel k;
  k.body = s.body;
  AsmLaunch l;
  std::mt19937 rng(21);
  auto small = [&] { return to_half(static_cast<long double>(int(rng() % 129) - 64) / 8); };
  for (unsigned i = 0; i < lanes; ++i) l.in.push_back(pack(small(), small())), l.aux.push_back(pack(small(), small()));
  for (unsigned i = 0; i < lanes; ++i) l.in.push_back(i < 4 ? 0x7ffffff0u + i : lane_float(i));
  l.out_words = s.count * lanes;
  RUN_ASM(r, k, l);
  auto f32 = [](u32 v) {
    float f;
    std::memcpy(&f, &v, 4);
    return f;
  };
  auto bits32 = [](float f) {
    u32 v;
    std::memcpy(&v, &f, 4);
    return v;
  };
  auto dot2 = [](long double a0, long double b0, long double a1, long double b1, float c) {
    return static_cast<float>(static_cast<float>(c + a0 * b0) + a1 * b1);  // ISA: c + lo products, then + hi products
  };
  for (unsigned lane = 0; lane < lanes; ++lane) {
    const u32 a = l.in[lane], b = l.aux[lane], c = l.in[lanes + lane];
    auto got = [&](int slot) { return r.out[slot * lanes + lane]; };
    SCOPED_TRACE(fmt::format("lane {}: a {:#010x} b {:#010x} c {:#010x}", lane, a, b, c));
    const float cf = f32(c);
    if (lane >= 4) {
      // low product: op_sel picks a.hi (negated) and b.lo; high product: op_sel_hi picks a.lo, b.hi (negated); c negated
      EXPECT_EQ(got(0), bits32(dot2(-hv(hi(a)), hv(lo(b)), hv(lo(a)), -hv(hi(b)), -cf)));
      EXPECT_EQ(got(1), bits32(dot2(hv(lo(a)), hv(lo(b)), hv(hi(a)), hv(hi(b)), cf)));
      EXPECT_EQ(got(2), bits32(dot2(2, hv(lo(b)), 2, hv(hi(b)), cf)));
      EXPECT_EQ(got(3), bits32(dot2(hv(lo(a)), hv(lo(b)), hv(hi(a)), hv(hi(b)), cf)));
      EXPECT_EQ(got(4), c) << "the Y half reads v4 before the X half writes it";
      EXPECT_EQ(got(5), bits32(dot2(bv(lo(a)), -bv(lo(b)), bv(hi(a)), bv(hi(b)), cf)));  // neg_lo: the low halves only
    }
    auto idot = [&](int bits, bool sa, bool sb, bool is_signed, bool clamp) {
      long long sum = is_signed ? (long long)i32(c) : (long long)c;
      for (int kk = 0; kk < 32 / bits; ++kk) {
        long long p = (a >> (bits * kk)) & ((1u << bits) - 1), q = (b >> (bits * kk)) & ((1u << bits) - 1);
        if (sa && p >= (1 << (bits - 1))) p -= 1 << bits;
        if (sb && q >= (1 << (bits - 1))) q -= 1 << bits;
        sum += p * q;
      }
      if (clamp) sum = std::clamp<long long>(sum, INT32_MIN, INT32_MAX);
      return u32(sum);
    };
    EXPECT_EQ(got(6), idot(8, false, true, true, true));
    EXPECT_EQ(got(7), idot(4, true, false, true, false));
    EXPECT_EQ(got(8), idot(8, false, false, false, false));
  }
}

TEST(EmuPackedAsm, MixedFmaEverySourceKind) {
  // {op_sel_hi[i], op_sel[i]} = 0x: source i as f32, 10: its low f16, 11: its high f16 (ISA 7.5).
  // Registers hold two moderate halves whose bits also read as a moderate f32; the f16 results use
  // small values so that the fused result is exact in long double.
  const unsigned lanes = 32;
  Slots s(lanes);
  std::vector<int> kinds;  // per slot: three source kinds (0 f32, 1 low, 2 high)
  for (int combo = 0; combo < 27; ++combo) {
    const int k0 = combo % 3, k1 = combo / 3 % 3, k2 = combo / 9;
    s.add(fmt::format("  v_fma_mix_f32 v4, -v2, |v3|, v5 op_sel:{} op_sel_hi:{}", list({k0 == 2, k1 == 2, k2 == 2}), list({k0 > 0, k1 > 0, k2 > 0}))),
        s.store();
    kinds.push_back(combo);
  }
  s.add("  v_mov_b32 v4, 0x12345678\n  v_fma_mixlo_f16 v4, v2, v3, v5 op_sel:[1,0,0] op_sel_hi:[1,1,1] clamp"), s.store();
  s.add("  v_mov_b32 v4, 0x12345678\n  v_fma_mixhi_f16 v4, -v2, v3, v5 op_sel:[0,1,1] op_sel_hi:[1,1,1]"), s.store();
  AsmKernel k;
  k.body = s.body;
  AsmLaunch l;
  std::mt19937 rng(22);
  // A half whose exponent field is 11..19 ([1/16, 16)): the register's bits as f32 are finite too.
  auto moderate = [&] { return u16((rng() % 2) << 15 | (11 + rng() % 8) << 10 | (rng() & 0x3ff)); };
  for (unsigned i = 0; i < 2 * lanes; ++i) l.in.push_back(pack(moderate(), moderate()));
  for (unsigned i = 0; i < lanes; ++i) l.aux.push_back(pack(moderate(), moderate()));
  l.out_words = s.count * lanes;
  RUN_ASM(r, k, l);
  auto f32 = [](u32 v) {
    float f;
    std::memcpy(&f, &v, 4);
    return f;
  };
  auto bits32 = [](float f) {
    u32 v;
    std::memcpy(&v, &f, 4);
    return v;
  };
  for (unsigned lane = 0; lane < lanes; ++lane) {
    const u32 src[3] = {l.in[lane], l.aux[lane], l.in[lanes + lane]};
    SCOPED_TRACE(fmt::format("lane {}: {:#010x} {:#010x} {:#010x}", lane, src[0], src[1], src[2]));
    for (int combo = 0; combo < 27; ++combo) {
      const int kind[3] = {combo % 3, combo / 3 % 3, combo / 9};
      float in[3];
      for (int i = 0; i < 3; ++i) in[i] = kind[i] == 0 ? f32(src[i]) : static_cast<float>(hv(kind[i] == 1 ? lo(src[i]) : hi(src[i])));
      // -v2, |v3|: the host's fma is the correctly rounded fused f32 operation
      EXPECT_EQ(r.out[combo * lanes + lane], bits32(std::fma(-in[0], std::fabs(in[1]), in[2]))) << "combo " << combo;
    }
    const long double lo_fma = hv(hi(src[0])) * hv(lo(src[1])) + hv(lo(src[2]));
    const u16 clamped = std::isnan(lo_fma) ? 0 : lo_fma <= 0 ? 0 : lo_fma >= 1 ? 0x3c00 : to_half(lo_fma);
    EXPECT_EQ(r.out[27 * lanes + lane], pack(clamped, 0x1234));
    EXPECT_EQ(r.out[28 * lanes + lane], pack(0x5678, to_half(-hv(lo(src[0])) * hv(hi(src[1])) + hv(hi(src[2])))));
  }
}

TEST(EmuPackedAsm, ConversionsAndBitForms) {
  const unsigned lanes = 32;
  Slots s(lanes);
  const char* init = "  v_mov_b32 v4, 0x12345678\n";
  for (const char* op : {"v_cvt_u16_f16_e32", "v_cvt_i16_f16_e32", "v_cvt_norm_i16_f16_e32", "v_cvt_norm_u16_f16_e32",
                         "v_frexp_exp_i16_f16_e32", "v_frexp_mant_f16_e32", "v_cvt_i32_i16_e32", "v_cvt_u32_u16_e32", "v_not_b16_e32",
                         "v_sat_pk_u8_i16_e32", "v_floor_f16_e32", "v_ceil_f16_e32", "v_trunc_f16_e32", "v_rndne_f16_e32", "v_fract_f16_e32"})
    s.add(std::string(init) + "  " + op + " v4, v2"), s.store();
  s.add(std::string(init) + "  v_ldexp_f16_e32 v4, v2, v3"), s.store();
  s.add("  v_cvt_pk_rtz_f16_f32_e32 v4, v5, v3"), s.store();
  s.add("  v_cvt_pk_norm_i16_f16 v4, v2, v3 op_sel:[1,0,0]"), s.store();
  s.add("  v_cvt_pk_i16_i32 v4, v2, v3"), s.store();
  s.add("  v_cvt_pk_u16_u32 v4, v2, v3"), s.store();
  s.add("  v_cvt_pk_i16_f32 v4, v5, v5"), s.store();
  s.add("  v_cvt_pk_u16_f32 v4, v5, v5"), s.store();
  AsmKernel k;
  k.body = s.body;
  AsmLaunch l;
  const u16 halves[] = {0x3c00, 0xbc00, 0x3800, 0xb800, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0x0001, 0x83ff, 0x4d00, 0xcd00, 0x3400,
                        0x0000, 0x8000, 0x5a00, 0x7800, 0xf800, 0x3d00, 0xbd00, 0x4100, 0x4500, 0xc300, 0x3555, 0x2000, 0x4a00, 0xc240,
                        0x3bff, 0x0400, 0x7a00, 0xfa00};
  const float floats[] = {1.0f, -1.0f, 65504.0f, 65519.0f, 65520.0f, 1e6f, -1e6f, 1.0004883f, -1.0004883f, 1e-7f, -5.96e-8f, 0.33333334f,
                          40000.5f, -40000.5f, 70000.0f, -3.75f, 2.5f, NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 3e-5f, 123.456f,
                          32767.9f, -32768.9f, 65535.5f, 1.5f, -2.5f, 7.9f, 1e-40f, 255.5f};
  std::mt19937 rng(23);
  for (unsigned i = 0; i < lanes; ++i) {
    l.in.push_back(pack(halves[i], halves[(i + 5) % lanes]));
    l.aux.push_back(i < 8 ? u32(int(i) - 4) * 0x10003u : u32(rng()));
  }
  for (unsigned i = 0; i < lanes; ++i) {
    u32 bitsf;
    std::memcpy(&bitsf, &floats[i], 4);
    l.in.push_back(bitsf);
  }
  l.out_words = s.count * lanes;
  RUN_ASM(r, k, l);
  auto truncated = [](long double v, long double lo_limit, long double hi_limit) -> long long {
    if (std::isnan(v)) return 0;
    return static_cast<long long>(std::clamp(std::trunc(v), lo_limit, hi_limit));
  };
  for (unsigned lane = 0; lane < lanes; ++lane) {
    const u32 a = l.in[lane], b = l.aux[lane], c = l.in[lanes + lane];
    const u16 h = lo(a);
    const long double x = hv(h);
    float cf;
    std::memcpy(&cf, &c, 4);
    auto got = [&](int slot) { return r.out[slot * lanes + lane]; };
    auto low = [&](int slot, u16 want) { EXPECT_EQ(got(slot), pack(want, 0x1234)) << "slot " << slot; };
    SCOPED_TRACE(fmt::format("lane {}: a {:#010x} b {:#010x} c {}", lane, a, b, cf));
    low(0, u16(truncated(x, 0, 65535)));
    low(1, u16(truncated(x, -32768, 32767)));
    // f16_to_snorm / f16_to_unorm: NaN 0, clamped, scaled by 32767 / 65535, nearest (no ties here)
    low(2, u16(std::isnan(x) ? 0 : static_cast<int>(std::nearbyint(std::clamp(x, -1.0L, 1.0L) * 32767))));
    low(3, u16(std::isnan(x) ? 0 : static_cast<int>(std::nearbyint(std::clamp(x, 0.0L, 1.0L) * 65535))));
    int e = 0;
    if (std::isfinite(x)) std::frexp(x, &e);
    low(4, u16(e));
    low(5, std::isfinite(x) ? to_half(std::frexp(x, &e)) : h);
    EXPECT_EQ(got(6), u32(i32(std::int16_t(h))));
    EXPECT_EQ(got(7), u32(h));
    low(8, u16(~h));
    auto sat8 = [](u16 v) { return u16(std::clamp<int>(std::int16_t(v), 0, 255)); };
    low(9, u16(sat8(lo(a)) | sat8(hi(a)) << 8));
    if (!std::isnan(x)) {
      low(10, to_half(std::floor(x)));
      low(11, to_half(std::ceil(x)));
      low(12, to_half(std::trunc(x)));
      low(13, to_half(std::nearbyint(x)));
      if (std::isfinite(x)) low(14, to_half(x - std::floor(x)));
      low(15, to_half(std::ldexp(x, std::clamp<int>(std::int16_t(lo(b)), -100, 100))));
    }
    // v_cvt_pk_rtz_f16_f32: each f32 rounded toward zero
    auto rtz = [](long double v) -> u16 {
      const u16 n = to_half(v);
      if (std::isnan(v) || std::isinf(v)) return n;
      return std::fabs(hv(n)) > std::fabs(v) ? u16(n - 1 == 0x7bff && (n & 0x7fff) == 0x7c00 ? n - 1 : n - 1) : n;
    };
    float bf;
    std::memcpy(&bf, &b, 4);
    EXPECT_TRUE(same16(lo(got(16)), rtz(cf)) && same16(hi(got(16)), rtz(bf))) << fmt::format("{:#010x}", got(16));
    auto snorm = [](long double v) { return u16(std::isnan(v) ? 0 : static_cast<int>(std::nearbyint(std::clamp(v, -1.0L, 1.0L) * 32767))); };
    EXPECT_EQ(got(17), pack(snorm(hv(hi(a))), snorm(hv(lo(b)))));
    EXPECT_EQ(got(18), pack(u16(std::clamp<i32>(i32(a), -32768, 32767)), u16(std::clamp<i32>(i32(b), -32768, 32767))));
    EXPECT_EQ(got(19), pack(u16(std::min<u32>(a, 0xffff)), u16(std::min<u32>(b, 0xffff))));
    EXPECT_EQ(got(20), pack(u16(truncated(cf, -32768, 32767)), u16(truncated(cf, -32768, 32767))));
    EXPECT_EQ(got(21), pack(u16(truncated(cf, 0, 65535)), u16(truncated(cf, 0, 65535))));
  }
}

TEST(EmuPackedAsm, SumsOfAbsoluteDifferences) {
  const unsigned lanes = 32;
  Slots s(lanes);
  for (const char* op : {"v_sad_u8", "v_sad_hi_u8", "v_sad_u16", "v_msad_u8", "v_lerp_u8"}) s.add(fmt::format("  {} v16, v2, v3, v5", op)), s.store("v16");
  s.add("  v_mov_b32 v6, v3\n  v_qsad_pk_u16_u8 v[8:9], v[2:3], v6, v[4:5]"), s.store("v8"), s.store("v9");
  s.add("  v_mov_b32 v6, v3\n  v_mqsad_pk_u16_u8 v[8:9], v[2:3], v6, v[4:5]"), s.store("v8"), s.store("v9");
  s.add("  v_mov_b32 v6, v3\n  v_mov_b32 v8, v4\n  v_mov_b32 v9, v5\n  v_mov_b32 v10, v2\n  v_mov_b32 v11, v5\n"
        "  v_mqsad_u32_u8 v[12:15], v[2:3], v6, v[8:11]"),
      s.store("v12"),
      s.store("v13"), s.store("v14"), s.store("v15");
  AsmKernel k;
  k.body = s.body;
  k.body.insert(k.body.find("s_waitcnt vmcnt(0)\n") + 19, "  v_mov_b32 v4, v5\n  v_mov_b32 v5, 0x00010002\n");
  AsmLaunch l;
  std::mt19937 rng(24);
  for (unsigned i = 0; i < 2 * lanes; ++i) l.in.push_back(i % 5 == 0 ? rng() & 0x00ff00ffu : u32(rng()));
  for (unsigned i = 0; i < lanes; ++i) l.aux.push_back(i % 3 == 0 ? rng() & 0xff00ff00u : u32(rng()));
  l.out_words = s.count * lanes;
  RUN_ASM(r, k, l);
  auto byte = [](u32 v, int i) { return (v >> (8 * i)) & 0xff; };
  auto sad = [&](u32 x, u32 y, u32 acc, bool masked) {
    for (int i = 0; i < 4; ++i)
      if (!masked || byte(y, i)) acc += byte(x, i) > byte(y, i) ? byte(x, i) - byte(y, i) : byte(y, i) - byte(x, i);
    return acc;
  };
  for (unsigned lane = 0; lane < lanes; ++lane) {
    // v2 = in[lane], v3 = aux[lane], v5 (overwritten) = 0x00010002, v4 = in[lanes + lane] (the accumulator)
    const u32 x = l.in[lane], y = l.aux[lane], acc = 0x00010002, x_hi = y, acc_hi = l.in[lanes + lane];
    auto got = [&](int slot) { return r.out[slot * lanes + lane]; };
    SCOPED_TRACE(fmt::format("lane {}: {:#010x} {:#010x}", lane, x, y));
    EXPECT_EQ(got(0), sad(x, y, acc, false));
    EXPECT_EQ(got(1), (sad(x, y, 0, false) << 16) + acc);
    auto d16 = [](u32 p, u32 q) { return p > q ? p - q : q - p; };
    EXPECT_EQ(got(2), acc + d16(x & 0xffff, y & 0xffff) + d16(x >> 16, y >> 16));
    EXPECT_EQ(got(3), sad(x, y, acc, true));
    u32 lerp = 0;
    for (int i = 0; i < 4; ++i) lerp |= ((byte(x, i) + byte(y, i) + (byte(acc, i) & 1)) >> 1) << (8 * i);
    EXPECT_EQ(got(4), lerp);
    // qsad/mqsad: S0 = {v3, v2} (64 bits), S1 = v3, S2 = {v5, v4} = {0x00010002, acc_hi}
    const std::uint64_t s0 = x | std::uint64_t(x_hi) << 32, s2 = acc_hi | std::uint64_t(acc) << 32;
    for (int masked = 0; masked < 2; ++masked) {
      std::uint64_t want = 0;
      for (int i = 0; i < 4; ++i) want |= std::uint64_t(sad(u32(s0 >> (8 * i)), y, u32(s2 >> (16 * i)) & 0xffff, masked) & 0xffff) << (16 * i);
      EXPECT_EQ(got(5 + 2 * masked), u32(want)) << "masked " << masked;
      EXPECT_EQ(got(6 + 2 * masked), u32(want >> 32)) << "masked " << masked;
    }
    const u32 acc4[4] = {acc_hi, acc, x, acc};  // v[8:11] = {v4, v5, v2 (v10), v5 (v11)}
    for (int i = 0; i < 4; ++i) EXPECT_EQ(got(9 + i), sad(u32(s0 >> (8 * i)), y, acc4[i], true)) << "mqsad_u32 " << i;
  }
}

TEST(EmuPackedAsm, HalfTranscendentalsAreCorrectlyRoundedForEveryInput) {
  // The emulator's stated behaviour for the hardware's approximations (data/emu/approximate.tsv):
  // the correctly rounded result, for every one of the 65536 f16 inputs, against long double.
  struct Function {
    const char* op;
    std::function<long double(long double)> f;
  };
  const Function functions[] = {
      {"v_rcp_f16", [](long double x) { return 1 / x; }},
      {"v_sqrt_f16", [](long double x) { return std::sqrt(x); }},
      {"v_rsq_f16", [](long double x) { return 1 / std::sqrt(x); }},
      {"v_log_f16", [](long double x) { return std::log2(x); }},
      {"v_exp_f16", [](long double x) { return std::exp2(x); }},
      {"v_sin_f16", [](long double x) { return x == 0 ? x : std::sin(2 * 3.14159265358979323846264338327950288L * (x - std::nearbyint(x))); }},
      {"v_cos_f16", [](long double x) { return std::cos(2 * 3.14159265358979323846264338327950288L * (x - std::nearbyint(x))); }},
  };
  std::string body = "  s_lshl_b32 s11, s2, 7\n  v_add_nc_u32 v1, s11, v1\n  global_load_b32 v2, v1, s[4:5]\n  s_waitcnt vmcnt(0)\n";
  for (std::size_t i = 0; i < std::size(functions); ++i)
    body += fmt::format("  {} v4, v2\n  global_store_b32 v1, v4, s[6:7] offset:{}\n", functions[i].op, 0) +
            (i + 1 < std::size(functions) ? "  s_add_u32 s6, s6, 0x40000\n  s_addc_u32 s7, s7, 0\n" : "");
  AsmKernel k;
  k.body = body;
  AsmLaunch l;
  for (u32 h = 0; h < 0x10000; ++h) l.in.push_back(h);
  l.aux.resize(1);
  l.groups = 0x10000 / 32;
  l.out_words = std::size(functions) * 0x10000;
  l.jobs = 2;
  RUN_ASM(r, k, l);
  for (std::size_t i = 0; i < std::size(functions); ++i) {
    int mismatches = 0;
    for (u32 h = 0; h < 0x10000; ++h) {
      const long double x = hv(u16(h));
      if (std::isnan(x) || (std::isinf(x) && i >= 5)) continue;  // NaNs, and sin/cos(inf): checked by the ISA examples
      const u16 got = lo(r.out[i * 0x10000 + h]), want = to_half(functions[i].f(x));
      // sin/cos of exact multiples of 1/4 turn are exactly 0; their sign is the ISA's (checked by its
      // examples above), not long double's rounding of pi.
      const bool exact_zero = i >= 5 && x != 0 && (got & 0x7fff) == 0 && (want & 0x7fff) == 0;
      if (!same16(got, want) && !exact_zero && mismatches++ < 5) ADD_FAILURE() << fmt::format("{}({:#06x}) = {:#06x}, want {:#06x}", functions[i].op, h, got, want);
    }
    EXPECT_EQ(mismatches, 0) << functions[i].op;
  }
}

TEST(EmuPackedAsm, MovB16WithRegisterHalves) {
  // LLVM 19 prints v_mov_b16 with true16 halves (v4.h, v2.l) even for gfx1100; its assembler needs
  // +real-true16 for them, so the encodings are written out (VOP1: 0x7e000000 | vdst << 17 | 28 << 9
  // | src0, bit 7 of vdst/src0 selecting the high half).
  auto mov = [](bool dst_high, bool src_high) {
    const u32 vdst = 4 | (dst_high ? 0x80 : 0), src0 = 258 | (src_high ? 0x80 : 0);
    return fmt::format("  v_mov_b32 v4, 0x12345678\n  .long {:#x}\n", 0x7e000000u | vdst << 17 | 28u << 9 | src0);
  };
  const unsigned lanes = 32;
  Slots s(lanes);
  s.add(mov(false, true)), s.store();
  s.add(mov(true, false)), s.store();
  s.add(mov(true, true)), s.store();
  s.add("  v_mov_b32 v4, 0x12345678\n  .long 0x7e0838ff, 0xabcd\n"), s.store();  // v_mov_b16_e32 v4.l, 0xabcd
  AsmKernel k;
  k.body = s.body;
  AsmLaunch l;
  for (unsigned i = 0; i < 2 * lanes; ++i) l.in.push_back(0x10001u * i ^ 0xa5a50000u);
  l.aux.resize(lanes);
  l.out_words = s.count * lanes;
  RUN_ASM(r, k, l);
  for (unsigned lane = 0; lane < lanes; ++lane) {
    const u32 a = l.in[lane];
    EXPECT_EQ(r.out[0 * lanes + lane], pack(hi(a), 0x1234));
    EXPECT_EQ(r.out[1 * lanes + lane], pack(0x5678, lo(a)));
    EXPECT_EQ(r.out[2 * lanes + lane], pack(0x5678, hi(a)));
    EXPECT_EQ(r.out[3 * lanes + lane], pack(0xabcd, 0x1234));
  }
}

TEST(EmuPackedAsm, SixteenBitComparesOfRegisterHalves) {
  // In a VOPC e32 16-bit compare, bit 7 of a VGPR field selects the register's high half (v2.h);
  // LLVM 19 prints it as "v130/*Invalid register...*/" and gpuport's decoder names the half
  // (rocPRIM's kernels in rocSPARSE 6.4 compare such halves). The encodings are written out:
  // 0x7c000000 | op << 17 | vsrc1 << 9 | src0.
  struct Compare {
    u32 op;
    const char* name;
    bool (*holds)(u16, u16);
  };
  const Compare compares[] = {{0x3a, "v_cmp_eq_u16", [](u16 a, u16 b) { return a == b; }},
                              {0x3c, "v_cmp_gt_u16", [](u16 a, u16 b) { return a > b; }},
                              {0x31, "v_cmp_lt_i16", [](u16 a, u16 b) { return std::int16_t(a) < std::int16_t(b); }}};
  const unsigned lanes = 32;
  Slots s(lanes);
  for (const auto& c : compares)
    for (int halves = 0; halves < 4; ++halves) {
      const u32 src0 = (256 + 3) | (halves & 1 ? 0x80 : 0), vsrc1 = 2 | (halves & 2 ? 0x80 : 0);
      s.add(fmt::format("  .long {:#x}\n  v_cndmask_b32 v4, 0, 1, vcc_lo", 0x7c000000u | c.op << 17 | vsrc1 << 9 | src0)), s.store();
    }
  AsmKernel k;
  k.body = s.body;
  AsmLaunch l;
  for (unsigned i = 0; i < 2 * lanes; ++i) l.in.push_back(pack(u16(i % 5), u16(0xfff0 + i % 7)));
  for (unsigned i = 0; i < lanes; ++i) l.aux.push_back(pack(u16(i % 3), u16(0xfff0 + i % 4)));
  l.out_words = s.count * lanes;
  RUN_ASM(r, k, l);
  unsigned slot = 0;
  for (const auto& c : compares)
    for (int halves = 0; halves < 4; ++halves, ++slot)
      for (unsigned lane = 0; lane < lanes; ++lane) {
        const u32 v3 = l.aux[lane], v2 = l.in[lane];
        const u16 a = halves & 1 ? hi(v3) : lo(v3), b = halves & 2 ? hi(v2) : lo(v2);
        ASSERT_EQ(r.out[slot * lanes + lane], c.holds(a, b) ? 1u : 0u) << fmt::format("{} halves {} lane {}", c.name, halves, lane);
      }
}

}  // namespace
}  // namespace gpuport::emu::testing
