// Vector ALU: VOP1, VOP2, VOP3, VOPC and VOPD (dual issue), per lane under EXEC. Float
// arithmetic is the host's IEEE binary32/binary64 with denormals, which is what the float modes
// clang sets for HIP kernels ask for (denormals kept, round to nearest even); the transcendental
// approximations of the hardware (v_rcp, v_rsq, v_sqrt, v_exp, v_log, v_sin, v_cos) are computed
// correctly rounded in double precision and listed as approximate in the status table.
#include <algorithm>
#include <bit>
#include <cfenv>
#include <cmath>
#include <limits>
#include <string>
#include <string_view>

#include "emu/half.h"
#include "emu/lanes.h"
#include "emu/lift_forms.h"
#include "emu/semantics.h"

namespace gpuport::emu {
namespace {

using namespace semantics;
using namespace lanes;

// One 32-bit source of a VALU instruction, read branch-free per lane: a VGPR column (step 1) or
// a value the same for every lane (step 0), with abs/neg as masks. Made once per instruction.
class Lanes32 {
 public:
  [[gnu::always_inline]] Lanes32(const Wave& w, const Operand& op) {
    if (op.kind == Operand::Kind::vgpr) {
      p_ = &w.v[op.reg * w.size];
    } else if (op.kind == Operand::Kind::none) {  // an operand the instruction does not have
      static constexpr u32 zeros[64] = {};
      p_ = zeros;
    } else {
      // A value the same for every lane is spread over a column of its own, so that every
      // source reads p_[lane] and a full-wave loop over them vectorizes.
      const u32 value = op.kind == Operand::Kind::float_const ? f32_bits(static_cast<float>(op.fvalue)) : read_scalar(w, op);
      for (u32 i = 0; i < 64; ++i) column_[i] = value;  // a fixed count: straight-line vector stores
      p_ = column_;
    }
    and_ = op.abs ? 0x7fffffffu : ~0u;
    xor_ = op.neg ? 0x80000000u : 0u;
  }
  Lanes32(const Lanes32&) = delete;
  Lanes32& operator=(const Lanes32&) = delete;
  [[gnu::always_inline]] u32 operator[](u32 lane) const { return (p_[lane] & and_) ^ xor_; }
  [[gnu::always_inline]] float f(u32 lane) const { return bits_f32((*this)[lane]); }

 private:
  const u32* p_;
  u32 and_, xor_;
  alignas(64) u32 column_[64];
};

// One 64-bit source (a VGPR pair, or a value the same for every lane), read per lane as Lanes32
// reads a 32-bit one; abs/neg act on the sign in the high word.
class Lanes64 {
 public:
  [[gnu::always_inline]] Lanes64(const Wave& w, const Operand& op) {
    if (op.kind == Operand::Kind::vgpr) {
      lo_ = &w.v[op.reg * w.size];
      hi_ = &w.v[(op.reg + 1) * w.size];
    } else {
      // As read_f64 reads it: a literal is the high word of a double.
      const u64 value = op.kind == Operand::Kind::none      ? 0
                        : op.kind == Operand::Kind::literal ? static_cast<u64>(static_cast<u32>(op.value)) << 32
                                                            : read_lane64(w, op, 0);
      for (u32 i = 0; i < 64; ++i) {
        lo_column_[i] = static_cast<u32>(value);
        hi_column_[i] = static_cast<u32>(value >> 32);
      }
      lo_ = lo_column_;
      hi_ = hi_column_;
    }
    and_ = op.abs ? 0x7fffffffu : ~0u;
    xor_ = op.neg ? 0x80000000u : 0u;
  }
  Lanes64(const Lanes64&) = delete;
  Lanes64& operator=(const Lanes64&) = delete;
  [[gnu::always_inline]] double f(u32 lane) const {
    return bits_f64(lo_[lane] | static_cast<u64>((hi_[lane] & and_) ^ xor_) << 32);
  }

 private:
  const u32 *lo_, *hi_;
  u32 and_, xor_;
  alignas(64) u32 lo_column_[64];
  alignas(64) u32 hi_column_[64];
};

// The output modifiers of a float result: OMOD (mul:2, mul:4, div:2) and CLAMP. As the ISA says,
// OMOD is ignored in IEEE mode and while output denormals are kept (for the result's precision);
// where it applies, denormal results are flushed and -0 becomes +0. CLAMP always applies.
template <typename T>
[[gnu::always_inline]] inline T apply_output_modifiers(T r, const Modifiers& m, const Wave& w) {
  if (!m.omod && !m.clamp) return r;
  const bool wide = sizeof(T) == 8;
  const u32 denorm = wide ? (w.mode >> mode::denorm16_64_shift) & 3 : (w.mode >> mode::denorm32_shift) & 3;
  if (m.omod && !(w.mode & mode::ieee) && !(denorm & 2)) {
    if (m.omod == 1) r *= T(2);
    else if (m.omod == 2) r *= T(4);
    else if (m.omod == 3) r *= T(0.5);
    if (std::fpclassify(r) == FP_SUBNORMAL || r == T(0)) r = T(0);
  }
  if (m.clamp) r = std::isnan(r) ? T(0) : std::fmin(std::fmax(r, T(0)), T(1));
  return r;
}


// ---- the float environment: MODE's rounding and denormal fields ------------------------------------
// Kernels run with round-to-nearest-even and denormals kept (what clang sets for HIP) unless built
// with -fgpu-flush-denormals-to-zero or changing MODE (s_denorm_mode, s_round_mode, s_setreg).
// Handlers run their lane loop through with_float_mode: the common case takes a path with no
// checks at all; otherwise the host's rounding mode is set to the wave's for the instruction and
// in()/out() flush denormal inputs and outputs as FP_DENORM says (bit 0: inputs kept, bit 1:
// outputs kept) for the instruction's precision (f32: the 32-bit fields; f64: the 16/64 ones).
struct FloatEnv {
  bool flush_in = false, flush_out = false;
};

template <bool Wide>
u32 float_fields(const Wave& w) {  // [1:0] round mode, [3:2] denormal mode
  return Wide ? ((w.mode >> mode::round16_64_shift) & 3) | ((w.mode >> mode::denorm16_64_shift) & 3) << 2
              : ((w.mode >> mode::round32_shift) & 3) | ((w.mode >> mode::denorm32_shift) & 3) << 2;
}

class HostRounding {
 public:
  explicit HostRounding(u32 round) {
    if (round == 0) return;
    saved_ = std::fegetround();
    static constexpr int modes[4] = {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO};
    std::fesetround(modes[round]);
  }
  ~HostRounding() {
    if (saved_ >= 0) std::fesetround(saved_);
  }
  HostRounding(const HostRounding&) = delete;
  HostRounding& operator=(const HostRounding&) = delete;

 private:
  int saved_ = -1;
};

// body(env, special): special is std::true_type on the path that must honour env.
template <bool Wide, typename Body>
[[gnu::always_inline]] inline void with_float_mode(const Wave& w, Body&& body) {
  const u32 fields = float_fields<Wide>(w);
  if (fields == 0b1100) {
    body(FloatEnv{}, std::false_type{});
    return;
  }
  const HostRounding rounding(fields & 3);
  body(FloatEnv{!((fields >> 2) & 1), !((fields >> 3) & 1)}, std::true_type{});
}

// The common case of a VALU instruction, checked once per instruction: every lane of the wave
// active, the default float mode for f32 and no output modifier. The handlers below then run a
// plain counted loop over the lanes, which the compiler vectorizes.
[[gnu::always_inline]] inline bool plain_f32(const Wave& w, const Step& s) {
  return all_lanes_active(w) && float_fields<false>(w) == 0b1100 && !s.mods.omod && !s.mods.clamp;
}

inline float flush(float x) {
  const u32 b = f32_bits(x);
  return (b & 0x7f800000u) == 0 ? bits_f32(b & 0x80000000u) : x;
}
inline double flush(double x) {
  const u64 b = f64_bits(x);
  return (b & 0x7ff0000000000000ull) == 0 ? bits_f64(b & 0x8000000000000000ull) : x;
}
template <typename T, typename Special>
[[gnu::always_inline]] inline T in(T x, const FloatEnv& e, Special) {
  if constexpr (Special::value) return e.flush_in ? flush(x) : x;
  else return x;
}
template <typename T, typename Special>
[[gnu::always_inline]] inline T out(T x, const FloatEnv& e, Special) {
  if constexpr (Special::value) return e.flush_out ? flush(x) : x;
  else return x;
}


// ---- f32 unary and binary, table driven -------------------------------------------------------
template <F1 Op>
bool vop1_f32(Wave& w, const Step& s, Context&) {
  const Operand& d = op(s, 0);
  const Operand& a = op(s, 1);
  with_float_mode<false>(w, [&](const FloatEnv& env, auto special) {
    for_active(w, [&](u32 lane) {
      const float r = lanes::f1_op<Op>(in(read_f32(w, a, lane), env, special));
      w.vgpr(d.reg, lane) = f32_bits(out(apply_output_modifiers(r, s.mods, w), env, special));
    });
  });
  return true;
}

template <F2 Op>
bool vop2_f32(Wave& w, const Step& s, Context&) {
  const Operand& d = op(s, 0);
  const Lanes32 a(w, op(s, 1)), b(w, op(s, 2));
  u32* result = &w.v[d.reg * w.size];
  if constexpr (Op != F2::ldexp) {
    if (plain_f32(w, s)) {
      for_full_wave(w.size, [&](u32 lane) __attribute__((always_inline)) { result[lane] = f32_bits(f2_op<Op>(a.f(lane), b.f(lane))); });
      return true;
    }
  }
  with_float_mode<false>(w, [&](const FloatEnv& env, auto special) {
    for_active(w, [&](u32 lane) {
      const float x = in(a.f(lane), env, special);
      float r;
      if constexpr (Op == F2::ldexp) r = ldexp_f32(x, b[lane]);
      else r = f2_op<Op>(x, in(b.f(lane), env, special));
      result[lane] = f32_bits(out(apply_output_modifiers(r, s.mods, w), env, special));
    });
  });
  return true;
}

// fma family: v_fma_f32 d, a, b, c; v_fmac_f32 d, a, b (d += a*b); v_fmamk_f32 d, a, K, b
// (a*K + b); v_fmaak_f32 d, a, b, K (a*b + K).
template <int Form>
bool fma_f32(Wave& w, const Step& s, Context&) {
  const Operand& d = op(s, 0);
  const Lanes32 sa(w, op(s, 1)), sb(w, op(s, 2)), sc(w, (Form == 1 || Form == 6) ? d : op(s, 3));
  u32* result = &w.v[d.reg * w.size];
  if (Form < 4 && plain_f32(w, s)) {
    for_full_wave(w.size, [&](u32 lane) __attribute__((always_inline)) {
      result[lane] = f32_bits(lanes::fma_f32(sa.f(lane), sb.f(lane), sc.f(lane)));
    });
    return true;
  }
  with_float_mode<false>(w, [&](const FloatEnv& env, auto special) {
    for_active(w, [&](u32 lane) {
      float r = 0;
      const float a = in(sa.f(lane), env, special), b = in(sb.f(lane), env, special), c = in(sc.f(lane), env, special);
      switch (Form) {
        case 0: r = lanes::fma_f32(a, b, c); break;
        case 1: r = lanes::fma_f32(a, b, c); break;  // fmac: the destination is the addend
        case 2: r = lanes::fma_f32(a, b, c); break;  // fmamk: a, K, b as printed
        case 3: r = lanes::fma_f32(a, b, c); break;  // fmaak: a, b, K
        case 4: r = a * b + c; break;          // v_mad_f32 style (unfused)
      case 5:                                // v_fma_dx9_zero_f32: 0 times anything (inf, NaN) is 0
      case 6: r = (a == 0.0f || b == 0.0f) ? 0.0f + c : std::fma(a, b, c); break;  // v_fmac_dx9_zero_f32
      }
      result[lane] = f32_bits(out(apply_output_modifiers(r, s.mods, w), env, special));
    });
  });
  return true;
}

template <int Form>
bool minmax3_f32(Wave& w, const Step& s, Context&) {
  const Operand& d = op(s, 0);
  with_float_mode<false>(w, [&](const FloatEnv& env, auto special) {
    for_active(w, [&](u32 lane) {
      const float a = in(read_f32(w, op(s, 1), lane), env, special), b = in(read_f32(w, op(s, 2), lane), env, special),
                  c = in(read_f32(w, op(s, 3), lane), env, special);
      float r = 0;
      switch (Form) {
        case 0: r = fmin32(fmin32(a, b), c); break;
        case 1: r = fmax32(fmax32(a, b), c); break;
        case 2: {  // med3
          if (std::isnan(a) || std::isnan(b) || std::isnan(c)) r = fmin32(fmin32(a, b), c);
          else r = std::fmax(std::fmin(a, b), std::fmin(std::fmax(a, b), c));
          break;
        }
        case 3: r = fmax32(fmin32(a, b), c); break;  // minmax
        case 4: r = fmin32(fmax32(a, b), c); break;  // maxmin
      }
      w.vgpr(d.reg, lane) = f32_bits(out(apply_output_modifiers(r, s.mods, w), env, special));
    });
  });
  return true;
}

// ---- f64 ----------------------------------------------------------------------------------------
// D2 and the meaning of add/mul/min/max/fma: lanes.h (d2_op).

template <D2 Op>
bool vop_f64(Wave& w, const Step& s, Context&) {
  const Operand& d = op(s, 0);
  if constexpr (Op == D2::add || Op == D2::mul || Op == D2::fma) {
    // The common case (every lane active, f64's default mode, no output modifier): a counted
    // loop over the lanes, as for f32 (rocBLAS's DGEMM is a run of v_fma_f64).
    if (all_lanes_active(w) && float_fields<true>(w) == 0b1100 && !s.mods.omod && !s.mods.clamp) {
      const Lanes64 a(w, op(s, 1)), b(w, op(s, 2)), c(w, op(s, Op == D2::fma ? 3 : 2));
      u32* lo = &w.v[d.reg * w.size];
      u32* hi = &w.v[(d.reg + 1) * w.size];
      for_full_wave(w.size, [&](u32 lane) __attribute__((always_inline)) {
        const double x = a.f(lane), y = b.f(lane);
        const double r = d2_op<Op>(x, y, Op == D2::fma ? c.f(lane) : 0.0);
        const u64 bits = f64_bits(r);
        lo[lane] = static_cast<u32>(bits);
        hi[lane] = static_cast<u32>(bits >> 32);
      });
      return true;
    }
  }
  with_float_mode<true>(w, [&](const FloatEnv& env, auto special) {
    auto src = [&](std::size_t i, u32 lane) { return in(read_f64(w, op(s, i), lane), env, special); };
    for_active(w, [&](u32 lane) {
      const double a = src(1, lane);
      double r = 0;
      switch (Op) {
        case D2::add:
        case D2::mul:
        case D2::min:
        case D2::max: r = d2_op<Op>(a, src(2, lane), 0.0); break;
        case D2::fma: r = d2_op<Op>(a, src(2, lane), src(3, lane)); break;
        case D2::ldexp: r = std::ldexp(a, static_cast<int>(std::clamp<i64>(i32(read_lane(w, op(s, 2), lane)), -3000, 3000))); break;
        case D2::rcp: r = 1.0 / a; break;
        case D2::rsq: r = 1.0 / std::sqrt(a); break;
        case D2::sqrt: r = std::sqrt(a); break;
        case D2::fract: r = std::isinf(a) ? std::numeric_limits<double>::quiet_NaN() : std::fmin(a - std::floor(a), 0x1.fffffffffffffp-1); break;
        case D2::trunc: r = std::trunc(a); break;
        case D2::ceil: r = std::ceil(a); break;
        case D2::floor: r = std::floor(a); break;
        case D2::rndne: r = std::nearbyint(a); break;
        case D2::frexp_mant: { if (std::isinf(a) || std::isnan(a)) r = a; else { int e; r = std::frexp(a, &e); } break; }
        case D2::mov: r = a; break;
      }
      write_lane64(w, d.reg, lane, f64_bits(out(apply_output_modifiers(r, s.mods, w), env, special)));
    });
  });
  return true;
}

// v_trig_preop_f64 d, x, segment: 53 bits of 2/pi for the Payne-Hanek reduction of large
// arguments (sin, cos, tan of doubles): the bits after the first 53 * segment (plus, for a large
// x, the bits its exponent shifts past), as a double scaled to their place. The hardware holds 2/pi
// to 1201 fractional bits; these are those bits, most significant first (computed with Machin's
// formula in exact integer arithmetic; the last word's low 15 bits are beyond the hardware's table).
constexpr u64 kTwoOverPi[19] = {
    0xa2f9836e4e441529, 0xfc2757d1f534ddc0, 0xdb6295993c439041, 0xfe5163abdebbc561, 0xb7246e3a424dd2e0,
    0x06492eea09d1921c, 0xfe1deb1cb129a73e, 0xe88235f52ebb4484, 0xe99c7026b45f7e41, 0x3991d639835339f4,
    0x9c845f8bbdf9283b, 0x1ff897ffde05980f, 0xef2f118b5a0a6d1f, 0x6d367ecf27cb09b7, 0x4f463f669e5fea2d,
    0x7527bac7ebe5f17b, 0x3d0739f78a5292ea, 0x6bfb5fb11f8d5d08, 0x56033046fc7b6bab};
constexpr int kTwoOverPiBits = 1201;

// Fractional bit i of 2/pi (0: the bit of weight 2^-1); 0 past the hardware's 1201 bits.
u64 two_over_pi_bit(int i) { return i >= kTwoOverPiBits ? 0 : (kTwoOverPi[i / 64] >> (63 - i % 64)) & 1; }

bool trig_preop(Wave& w, const Step& s, Context&) {
  for_active(w, [&](u32 lane) {
    const u64 bits = f64_bits(read_f64(w, op(s, 1), lane));
    const int exponent = static_cast<int>((bits >> 52) & 0x7ff);
    int shift = static_cast<int>(read_lane(w, op(s, 2), lane) & 31) * 53;
    if (exponent > 1077) shift += exponent - 1077;
    // Segments that start past bit 1119 read 0: what LLVM's constant folding of the intrinsic
    // does (it calls this the hardware's out-of-bounds behaviour). ocml's reduction of any finite
    // double asks for at most bit 1128, inside the table.
    if (shift >= 1120) {
      write_lane64(w, op(s, 0).reg, lane, 0);
      return;
    }
    u64 segment = 0;
    for (int i = 0; i < 53; ++i) segment = segment << 1 | two_over_pi_bit(shift + i);
    int scale = -53 - shift;
    if (exponent >= 1968) scale += 128;
    write_lane64(w, op(s, 0).reg, lane, f64_bits(std::ldexp(static_cast<double>(segment), scale)));
  });
  return true;
}

// ---- division helpers (the sequence clang emits for IEEE-correct fdiv): lanes.h ----------------
template <typename T>
T read_float(const Wave& w, const Operand& o, u32 lane) {
  if constexpr (sizeof(T) == 8) return read_f64(w, o, lane);
  else return read_f32(w, o, lane);
}

template <typename T>
void write_float(Wave& w, u32 reg, u32 lane, T value) {
  if constexpr (sizeof(T) == 8) write_lane64(w, reg, lane, f64_bits(value));
  else w.vgpr(reg, lane) = f32_bits(value);
}

// v_div_scale d, vcc, s0, s1 (denominator), s2 (numerator)
template <typename T>
bool div_scale(Wave& w, const Step& s, Context&) {
  u64 mask = 0;
  for_active(w, [&](u32 lane) {
    bool scaled = false;
    const T r = lanes::div_scale_op<T>(read_float<T>(w, op(s, 2), lane), read_float<T>(w, op(s, 3), lane),
                                       read_float<T>(w, op(s, 4), lane), scaled);
    if (scaled) mask |= 1ull << lane;
    write_float<T>(w, op(s, 0).reg, lane, r);
  });
  write_mask(w, op(s, 1), mask);
  return true;
}

template <typename T>
bool div_fmas(Wave& w, const Step& s, Context&) {
  const u64 vcc = w.vcc();
  for_active(w, [&](u32 lane) {
    const T r = lanes::div_fmas_op<T>(read_float<T>(w, op(s, 1), lane), read_float<T>(w, op(s, 2), lane),
                                      read_float<T>(w, op(s, 3), lane), (vcc >> lane) & 1);
    write_float<T>(w, op(s, 0).reg, lane, r);
  });
  return true;
}

// v_div_fixup d, quotient, denominator, numerator
template <typename T>
bool div_fixup(Wave& w, const Step& s, Context&) {
  for_active(w, [&](u32 lane) {
    write_float<T>(w, op(s, 0).reg, lane,
                   lanes::div_fixup_op<T>(read_float<T>(w, op(s, 1), lane), read_float<T>(w, op(s, 2), lane), read_float<T>(w, op(s, 3), lane)));
  });
  return true;
}

// ---- conversions (lanes.h has the 32-bit ones) ------------------------------------------------
template <Cv Op>
bool convert(Wave& w, const Step& s, Context&) {
  const Operand& d = op(s, 0);
  const Operand& a = op(s, 1);
  // MODE: denormal sources and results flushed as the source's and the result's precision say;
  // the result rounded in the rounding mode of its precision.
  constexpr bool wide_result = Op == Cv::f64_f32 || Op == Cv::f64_i32 || Op == Cv::f64_u32;
  const HostRounding rounding(float_fields<wide_result>(w) & 3);
  const bool flush_in32 = !((w.mode >> mode::denorm32_shift) & 1), flush_in64 = !((w.mode >> mode::denorm16_64_shift) & 1);
  const bool flush_out32 = !((w.mode >> mode::denorm32_shift) & 2), flush_out64 = !((w.mode >> mode::denorm16_64_shift) & 2);
  auto read_f32 = [&](const Wave& wv, const Operand& o, u32 lane) {
    const float x = emu::read_f32(wv, o, lane);
    return flush_in32 ? flush(x) : x;
  };
  auto read_f64 = [&](const Wave& wv, const Operand& o, u32 lane) {
    const double x = emu::read_f64(wv, o, lane);
    return flush_in64 ? flush(x) : x;
  };
  auto f32_bits = [&](float r) { return emu::f32_bits(flush_out32 ? flush(r) : r); };
  for_active(w, [&](u32 lane) {
    auto put64 = [&](double r) { write_lane64(w, d.reg, lane, f64_bits(flush_out64 ? flush(r) : r)); };
    u32& out = w.vgpr(d.reg, lane);
    switch (Op) {
      case Cv::f32_i32:
      case Cv::f32_u32: out = f32_bits(apply_output_modifiers(bits_f32(lanes::cv32_op<Op>(read_lane(w, a, lane))), s.mods, w)); break;
      case Cv::i32_f32:
      case Cv::u32_f32:
      case Cv::rpi_i32_f32:
      case Cv::flr_i32_f32:
      case Cv::frexp_exp_i32_f32: out = lanes::cv32_op<Op>(emu::f32_bits(read_f32(w, a, lane))); break;
      case Cv::f32_ubyte0:
      case Cv::f32_ubyte1:
      case Cv::f32_ubyte2:
      case Cv::f32_ubyte3: out = f32_bits(bits_f32(lanes::cv32_op<Op>(read_lane(w, a, lane)))); break;
      case Cv::f64_f32: put64(apply_output_modifiers(static_cast<double>(read_f32(w, a, lane)), s.mods, w)); break;
      case Cv::f32_f64: out = f32_bits(apply_output_modifiers(static_cast<float>(read_f64(w, a, lane)), s.mods, w)); break;
      case Cv::f64_i32: put64(static_cast<double>(i32(read_lane(w, a, lane)))); break;
      case Cv::f64_u32: put64(static_cast<double>(read_lane(w, a, lane))); break;
      case Cv::i32_f64: out = u32(saturate<i32>(read_f64(w, a, lane))); break;
      case Cv::u32_f64: out = saturate<u32>(read_f64(w, a, lane)); break;
      case Cv::frexp_exp_i32_f64: {
        const double x = read_f64(w, a, lane);
        int e = 0;
        if (!std::isinf(x) && !std::isnan(x)) std::frexp(x, &e);
        out = u32(e);
        break;
      }
    }
  });
  return true;
}

// ---- integer ------------------------------------------------------------------------------------
template <I Op>
bool vop_int(Wave& w, const Step& s, Context&) {
  constexpr int sources = int_sources<Op>();
  static const Operand absent;
  const Lanes32 la(w, op(s, 1)), lb(w, sources >= 2 ? op(s, 2) : absent), lc(w, sources >= 3 ? op(s, 3) : absent);
  u32* out = &w.v[op(s, 0).reg * w.size];
  const bool clamp = s.mods.clamp;
  if (!clamp && all_lanes_active(w)) {
    for_full_wave(w.size, [&](u32 lane) __attribute__((always_inline)) { out[lane] = int_op<Op>(la[lane], lb[lane], lc[lane], lane, false); });
    return true;
  }
  for_active(w, [&](u32 lane) { out[lane] = int_op<Op>(la[lane], lb[lane], lc[lane], lane, clamp); });
  return true;
}

// Carry-out forms: v_add_co_u32 d, sdst, a, b; v_add_co_ci_u32 d, sdst, a, b, carry-in.
template <int Op>
bool add_carry(Wave& w, const Step& s, Context&) {
  const Operand& d = op(s, 0);
  const Operand& carry_out = op(s, 1);
  const u64 carry_in = (Op >= 3) ? read_mask(w, op(s, 4)) : 0;
  const Lanes32 lx(w, op(s, 2)), ly(w, op(s, 3));
  u64 mask = 0;
  for_active(w, [&](u32 lane) {
    bool carry = false;
    w.vgpr(d.reg, lane) = carry_op<Op>(lx[lane], ly[lane], static_cast<u32>((carry_in >> lane) & 1), carry);
    if (carry) mask |= 1ull << lane;
  });
  write_mask(w, carry_out, mask);
  return true;
}

// v_mad_u64_u32 / v_mad_i64_i32 d[2], sdst, a, b, c[2].
template <bool Signed>
bool mad64(Wave& w, const Step& s, Context&) {
  const Operand& d = op(s, 0);
  const Operand& carry_out = op(s, 1);
  u64 mask = 0;
  for_active(w, [&](u32 lane) {
    const u32 x = read_lane(w, op(s, 2), lane), y = read_lane(w, op(s, 3), lane);
    const u64 c = read_lane64(w, op(s, 4), lane);
    bool carry = false;
    const u64 r = mad64_op<Signed>(x, y, c, carry);
    write_lane64(w, d.reg, lane, r);
    if (carry) mask |= 1ull << lane;
  });
  write_mask(w, carry_out, mask);
  return true;
}

// 64-bit shifts: v_lshlrev_b64 d, shift, src.
template <int Op>
bool shift64(Wave& w, const Step& s, Context&) {
  const Operand& d = op(s, 0);
  for_active(w, [&](u32 lane) {
    write_lane64(w, d.reg, lane, shift64_op<Op>(read_lane(w, op(s, 1), lane), read_lane64(w, op(s, 2), lane)));
  });
  return true;
}

// v_swap_b32 a, b: the two VGPRs exchange their values in every active lane.
bool swap(Wave& w, const Step& s, Context&) {
  const u32 x = op(s, 0).reg, y = op(s, 1).reg;
  for_active(w, [&](u32 lane) { std::swap(w.vgpr(x, lane), w.vgpr(y, lane)); });
  return true;
}

// v_cndmask_b32 d, a (false), b (true), mask; the VOPD form (v_dual_cndmask_b32 d, a, b) reads
// VCC implicitly.
bool cndmask(Wave& w, const Step& s, Context&) {
  const Operand& d = op(s, 0);
  const u64 mask = s.ops.size() >= 4 ? read_mask(w, op(s, 3)) : w.vcc();
  for_active(w, [&](u32 lane) {
    const bool take_b = (mask >> lane) & 1;
    u32 v = take_b ? read_lane(w, op(s, 2), lane) : read_lane(w, op(s, 1), lane);
    const Operand& src = take_b ? op(s, 2) : op(s, 1);
    if (src.abs) v &= 0x7fffffffu;
    if (src.neg) v ^= 0x80000000u;
    w.vgpr(d.reg, lane) = v;
  });
  return true;
}

// Cross-lane: v_readfirstlane_b32 sdst, v; v_readlane_b32 sdst, v, lane; v_writelane_b32 v, s, lane.
bool readfirstlane(Wave& w, const Step& s, Context&) {
  const u64 e = w.exec();
  const u32 lane = e ? static_cast<u32>(std::countr_zero(e)) : 0;
  write_scalar(w, op(s, 0), read_lane(w, op(s, 1), lane));
  return true;
}
bool readlane(Wave& w, const Step& s, Context&) {
  const u32 lane = read_scalar(w, op(s, 2)) & (w.size - 1);
  write_scalar(w, op(s, 0), read_lane(w, op(s, 1), lane));
  return true;
}
bool writelane(Wave& w, const Step& s, Context&) {
  const u32 lane = read_scalar(w, op(s, 2)) & (w.size - 1);
  w.vgpr(op(s, 0).reg, lane) = read_scalar(w, op(s, 1));
  return true;
}

// ---- compares -----------------------------------------------------------------------------------
// A 16-bit integer operand: the low half of its register, or the high half (v7.h).
u16 read_half(const Wave& w, const Operand& op, u32 lane) {
  const u32 v = read_lane(w, op, lane);
  return static_cast<u16>(op.high16 ? v >> 16 : v);
}

enum class Ty : std::uint8_t { f16, f32, f64, i16, i32, i64, u16, u32, u64 };
static_assert(u32(Ty::u64) == compare_type::u64 && u32(Ty::f32) == compare_type::f32 && u32(Ty::i32) == compare_type::i32);

// step.param = condition, param2 = type; the destination is an SGPR mask (VCC in e32) or, for
// v_cmpx, EXEC. Lanes outside EXEC get 0.
template <bool Exec, bool Class>
bool vcmp(Wave& w, const Step& s, Context&) {
  const std::size_t first_src = Exec ? 0 : 1;
  const Operand& a = op(s, first_src);
  const Operand& b = op(s, first_src + 1);
  const Ty type = static_cast<Ty>(s.param2);
  const bool flush_in32 = !((w.mode >> mode::denorm32_shift) & 1), flush_in64 = !((w.mode >> mode::denorm16_64_shift) & 1);
  u64 mask = 0;
  for_active(w, [&](u32 lane) {
    bool r = false;
    if (Class) {  // lanes::float_class
      const u32 classes = read_lane(w, b, lane);
      if (type == Ty::f64) r = (classes >> lanes::float_class(read_lane64(w, a, lane), 11, 52)) & 1;
      else if (type == Ty::f16) r = (classes >> lanes::float_class(read_f16_bits(w, a, lane), 5, 10)) & 1;
      else r = lanes::class_f32(read_lane(w, a, lane), classes);
    } else {
      switch (type) {
        case Ty::f16: {  // denormal inputs flushed by the 16/64-bit field, as f64's
          u16 x = read_f16_bits(w, a, lane), y = read_f16_bits(w, b, lane);
          if (flush_in64) {
            if ((x & 0x7c00) == 0) x &= 0x8000;
            if ((y & 0x7c00) == 0) y &= 0x8000;
          }
          r = compare_float(half_to_float(x), half_to_float(y), s.param);
          break;
        }
        case Ty::f32: {  // denormal inputs compare as zero where MODE flushes them
          float x = read_f32(w, a, lane), y = read_f32(w, b, lane);
          if (flush_in32) x = flush(x), y = flush(y);
          r = compare_float(x, y, s.param);
          break;
        }
        case Ty::f64: {
          double x = read_f64(w, a, lane), y = read_f64(w, b, lane);
          if (flush_in64) x = flush(x), y = flush(y);
          r = compare_float(x, y, s.param);
          break;
        }
        case Ty::i16: r = compare_int<std::int16_t>(std::int16_t(read_half(w, a, lane)), std::int16_t(read_half(w, b, lane)), s.param); break;
        case Ty::u16: r = compare_int<u16>(read_half(w, a, lane), read_half(w, b, lane), s.param); break;
        case Ty::i32: r = compare_int<i32>(i32(read_lane(w, a, lane)), i32(read_lane(w, b, lane)), s.param); break;
        case Ty::u32: r = compare_int<u32>(read_lane(w, a, lane), read_lane(w, b, lane), s.param); break;
        case Ty::i64: r = compare_int<i64>(i64(read_lane64(w, a, lane)), i64(read_lane64(w, b, lane)), s.param); break;
        case Ty::u64: r = compare_int<u64>(read_lane64(w, a, lane), read_lane64(w, b, lane), s.param); break;
      }
    }
    if (r) mask |= 1ull << lane;
  });
  if (Exec) w.set_exec(mask);
  else write_mask(w, op(s, 0), mask);
  return true;
}

// ---- VOPD ----------------------------------------------------------------------------------------
// Both halves read their sources before either writes: X runs, its result is set aside and the
// old destination put back, Y runs on the original values, then X's result is written.
bool vopd(Wave& w, const Step& s, Context& c) {
  const Step& x = *s.vopd_x;
  const Step& y = *s.vopd_y;
  const u32 xd = x.ops[0].reg;
  u32 old[64], result[64];
  for (u32 l = 0; l < w.size; ++l) old[l] = w.vgpr(xd, l);
  if (!x.handler(w, x, c)) return false;
  for (u32 l = 0; l < w.size; ++l) {
    result[l] = w.vgpr(xd, l);
    w.vgpr(xd, l) = old[l];
  }
  if (!y.handler(w, y, c)) return false;
  for (u32 l = 0; l < w.size; ++l) w.vgpr(xd, l) = result[l];
  return true;
}

struct Entry {
  std::string_view mnemonic;
  Handler handler;
};

const Entry kVector[] = {
    {"v_mov_b32", vop_int<I::mov>}, {"v_not_b32", vop_int<I::not_>}, {"v_bfrev_b32", vop_int<I::bfrev>},
    {"v_clz_i32_u32", vop_int<I::clz>}, {"v_ctz_i32_b32", vop_int<I::ctz>}, {"v_cls_i32", vop_int<I::cls>},
    {"v_add_nc_u32", vop_int<I::add_nc>}, {"v_sub_nc_u32", vop_int<I::sub_nc>}, {"v_subrev_nc_u32", vop_int<I::subrev_nc>},
    {"v_and_b32", vop_int<I::and_>}, {"v_or_b32", vop_int<I::or_>}, {"v_xor_b32", vop_int<I::xor_>}, {"v_xnor_b32", vop_int<I::xnor>},
    {"v_lshlrev_b32", vop_int<I::lshlrev>}, {"v_lshrrev_b32", vop_int<I::lshrrev>}, {"v_ashrrev_i32", vop_int<I::ashrrev>},
    {"v_min_i32", vop_int<I::min_i32>}, {"v_max_i32", vop_int<I::max_i32>}, {"v_min_u32", vop_int<I::min_u32>},
    {"v_max_u32", vop_int<I::max_u32>}, {"v_mul_u32_u24", vop_int<I::mul_u32_u24>}, {"v_mul_i32_i24", vop_int<I::mul_i32_i24>},
    {"v_mul_hi_u32_u24", vop_int<I::mul_hi_u32_u24>}, {"v_mul_hi_i32_i24", vop_int<I::mul_hi_i32_i24>},
    {"v_mul_lo_u32", vop_int<I::mul_lo_u32>}, {"v_mul_hi_u32", vop_int<I::mul_hi_u32>}, {"v_mul_hi_i32", vop_int<I::mul_hi_i32>},
    {"v_bcnt_u32_b32", vop_int<I::bcnt>}, {"v_mbcnt_lo_u32_b32", vop_int<I::mbcnt_lo>}, {"v_mbcnt_hi_u32_b32", vop_int<I::mbcnt_hi>},
    {"v_add3_u32", vop_int<I::add3>}, {"v_xad_u32", vop_int<I::xad>}, {"v_lshl_add_u32", vop_int<I::lshl_add>},
    {"v_add_lshl_u32", vop_int<I::add_lshl>}, {"v_lshl_or_b32", vop_int<I::lshl_or>}, {"v_and_or_b32", vop_int<I::and_or>},
    {"v_or3_b32", vop_int<I::or3>}, {"v_xor3_b32", vop_int<I::xor3>}, {"v_alignbit_b32", vop_int<I::alignbit>},
    {"v_alignbyte_b32", vop_int<I::alignbyte>}, {"v_bfi_b32", vop_int<I::bfi>}, {"v_bfe_u32", vop_int<I::bfe_u32>},
    {"v_bfe_i32", vop_int<I::bfe_i32>}, {"v_perm_b32", vop_int<I::perm>}, {"v_mad_u32_u24", vop_int<I::mad_u32_u24>},
    {"v_mad_i32_i24", vop_int<I::mad_i32_i24>}, {"v_min3_i32", vop_int<I::min3_i32>}, {"v_max3_i32", vop_int<I::max3_i32>},
    {"v_med3_i32", vop_int<I::med3_i32>}, {"v_min3_u32", vop_int<I::min3_u32>}, {"v_max3_u32", vop_int<I::max3_u32>},
    {"v_med3_u32", vop_int<I::med3_u32>}, {"v_minmax_i32", vop_int<I::minmax_i32>}, {"v_maxmin_i32", vop_int<I::maxmin_i32>},
    {"v_minmax_u32", vop_int<I::minmax_u32>}, {"v_maxmin_u32", vop_int<I::maxmin_u32>}, {"v_bfm_b32", vop_int<I::bfm>},
    {"v_sad_u32", vop_int<I::sad_u32>},
    {"v_add_co_u32", add_carry<0>}, {"v_sub_co_u32", add_carry<1>}, {"v_subrev_co_u32", add_carry<2>},
    {"v_add_co_ci_u32", add_carry<3>}, {"v_sub_co_ci_u32", add_carry<4>}, {"v_subrev_co_ci_u32", add_carry<5>},
    {"v_mad_u64_u32", mad64<false>}, {"v_mad_i64_i32", mad64<true>},
    {"v_lshlrev_b64", shift64<0>}, {"v_lshrrev_b64", shift64<1>}, {"v_ashrrev_i64", shift64<2>},
    {"v_cndmask_b32", cndmask}, {"v_readfirstlane_b32", readfirstlane}, {"v_readlane_b32", readlane}, {"v_writelane_b32", writelane},
    {"v_rcp_f32", vop1_f32<F1::rcp>}, {"v_rcp_iflag_f32", vop1_f32<F1::rcp_iflag>}, {"v_rsq_f32", vop1_f32<F1::rsq>},
    {"v_sqrt_f32", vop1_f32<F1::sqrt>}, {"v_exp_f32", vop1_f32<F1::exp>}, {"v_log_f32", vop1_f32<F1::log>},
    {"v_sin_f32", vop1_f32<F1::sin>}, {"v_cos_f32", vop1_f32<F1::cos>}, {"v_fract_f32", vop1_f32<F1::fract>},
    {"v_trunc_f32", vop1_f32<F1::trunc>}, {"v_ceil_f32", vop1_f32<F1::ceil>}, {"v_floor_f32", vop1_f32<F1::floor>},
    {"v_rndne_f32", vop1_f32<F1::rndne>}, {"v_frexp_mant_f32", vop1_f32<F1::frexp_mant>},
    {"v_add_f32", vop2_f32<F2::add>}, {"v_sub_f32", vop2_f32<F2::sub>}, {"v_subrev_f32", vop2_f32<F2::subrev>},
    {"v_mul_f32", vop2_f32<F2::mul>}, {"v_mul_dx9_zero_f32", vop2_f32<F2::mul_legacy>}, {"v_min_f32", vop2_f32<F2::min>},
    {"v_max_f32", vop2_f32<F2::max>}, {"v_ldexp_f32", vop2_f32<F2::ldexp>},
    {"v_add_nc_i32", vop_int<I::add_nc_i32>}, {"v_sub_nc_i32", vop_int<I::sub_nc_i32>}, {"v_cvt_off_f32_i4", vop_int<I::cvt_off_f32_i4>},
    {"v_swap_b32", swap}, {"v_nop", nop}, {"v_pipeflush", nop},
    {"v_fma_dx9_zero_f32", fma_f32<5>}, {"v_fmac_dx9_zero_f32", fma_f32<6>},
    {"v_fma_f32", fma_f32<0>}, {"v_fmac_f32", fma_f32<1>}, {"v_fmamk_f32", fma_f32<2>}, {"v_fmaak_f32", fma_f32<3>},
    {"v_min3_f32", minmax3_f32<0>}, {"v_max3_f32", minmax3_f32<1>}, {"v_med3_f32", minmax3_f32<2>},
    {"v_minmax_f32", minmax3_f32<3>}, {"v_maxmin_f32", minmax3_f32<4>},
    {"v_add_f64", vop_f64<D2::add>}, {"v_mul_f64", vop_f64<D2::mul>}, {"v_min_f64", vop_f64<D2::min>}, {"v_max_f64", vop_f64<D2::max>},
    {"v_fma_f64", vop_f64<D2::fma>}, {"v_ldexp_f64", vop_f64<D2::ldexp>}, {"v_rcp_f64", vop_f64<D2::rcp>},
    {"v_rsq_f64", vop_f64<D2::rsq>}, {"v_sqrt_f64", vop_f64<D2::sqrt>}, {"v_fract_f64", vop_f64<D2::fract>},
    {"v_trunc_f64", vop_f64<D2::trunc>}, {"v_ceil_f64", vop_f64<D2::ceil>}, {"v_floor_f64", vop_f64<D2::floor>},
    {"v_rndne_f64", vop_f64<D2::rndne>}, {"v_frexp_mant_f64", vop_f64<D2::frexp_mant>}, {"v_trig_preop_f64", trig_preop},
    {"v_div_scale_f32", div_scale<float>}, {"v_div_scale_f64", div_scale<double>}, {"v_div_fmas_f32", div_fmas<float>},
    {"v_div_fmas_f64", div_fmas<double>}, {"v_div_fixup_f32", div_fixup<float>}, {"v_div_fixup_f64", div_fixup<double>},
    {"v_cvt_f32_i32", convert<Cv::f32_i32>}, {"v_cvt_f32_u32", convert<Cv::f32_u32>}, {"v_cvt_i32_f32", convert<Cv::i32_f32>},
    {"v_cvt_u32_f32", convert<Cv::u32_f32>}, {"v_cvt_f64_f32", convert<Cv::f64_f32>}, {"v_cvt_f32_f64", convert<Cv::f32_f64>},
    {"v_cvt_f64_i32", convert<Cv::f64_i32>}, {"v_cvt_f64_u32", convert<Cv::f64_u32>}, {"v_cvt_i32_f64", convert<Cv::i32_f64>},
    {"v_cvt_u32_f64", convert<Cv::u32_f64>}, {"v_cvt_f32_ubyte0", convert<Cv::f32_ubyte0>}, {"v_cvt_f32_ubyte1", convert<Cv::f32_ubyte1>},
    {"v_cvt_f32_ubyte2", convert<Cv::f32_ubyte2>}, {"v_cvt_f32_ubyte3", convert<Cv::f32_ubyte3>},
    {"v_cvt_rpi_i32_f32", convert<Cv::rpi_i32_f32>}, {"v_cvt_flr_i32_f32", convert<Cv::flr_i32_f32>},
    // LLVM 19 prints v_cvt_flr/rpi as v_cvt_floor/nearest on gfx11.
    {"v_cvt_nearest_i32_f32", convert<Cv::rpi_i32_f32>}, {"v_cvt_floor_i32_f32", convert<Cv::flr_i32_f32>},
    {"v_frexp_exp_i32_f32", convert<Cv::frexp_exp_i32_f32>}, {"v_frexp_exp_i32_f64", convert<Cv::frexp_exp_i32_f64>},
};

const std::string_view kConditions[] = {"f", "lt", "eq", "le", "gt", "lg", "ge", "o", "u", "nge", "nlg", "ngt", "nle", "neq", "nlt", "t"};
const std::string_view kIntConditions[] = {"f", "lt", "eq", "le", "gt", "ne", "ge", "t"};
const std::string_view kTypes[] = {"f16", "f32", "f64", "i16", "i32", "i64", "u16", "u32", "u64"};

Handler resolve_compare(std::string_view m, Step& step) {
  bool exec = false;
  if (m.starts_with("v_cmpx_")) {
    exec = true;
    m.remove_prefix(7);
  } else if (m.starts_with("v_cmp_")) {
    m.remove_prefix(6);
  } else {
    return nullptr;
  }
  const auto under = m.rfind('_');
  if (under == std::string_view::npos) return nullptr;
  const std::string_view cond = m.substr(0, under), type = m.substr(under + 1);
  int t = -1;
  for (int i = 0; i < 9; ++i)
    if (kTypes[i] == type) t = i;
  if (t < 0) return nullptr;
  step.param2 = static_cast<std::uint32_t>(t);
  // 16-bit compares read either half of a register (read_f16_bits, read_half).
  if (type.ends_with("16")) step.accepts |= Accepts::high16;
  if (cond == "class") {
    if (type != "f16" && type != "f32" && type != "f64") return nullptr;
    return exec ? vcmp<true, true> : vcmp<false, true>;
  }
  const bool is_float = type[0] == 'f';
  if (is_float) {
    for (std::uint32_t i = 0; i < 16; ++i)
      if (kConditions[i] == cond || (i == 15 && cond == "tru")) {
        step.param = i;
        return exec ? vcmp<true, false> : vcmp<false, false>;
      }
  } else {
    for (std::uint32_t i = 0; i < 8; ++i)
      if (kIntConditions[i] == cond) {
        step.param = i == 7 ? 15 : i;
        return exec ? vcmp<true, false> : vcmp<false, false>;
      }
  }
  return nullptr;
}

}  // namespace

// When Y reads no register X writes, running X then Y is the same as reading both first.
bool vopd_in_order(Wave& w, const Step& s, Context& c) { return s.vopd_x->handler(w, *s.vopd_x, c) && s.vopd_y->handler(w, *s.vopd_y, c); }

Handler vopd_handler(const Step& x, const Step& y) {
  if (x.ops.empty()) return vopd;
  const Operand& d = x.ops[0];
  for (std::size_t i = 1; i < y.ops.size(); ++i)
    if (y.ops[i].kind == Operand::Kind::vgpr && y.ops[i].reg <= d.reg + d.width - 1 && d.reg <= y.ops[i].reg + y.ops[i].width - 1) return vopd;
  // v_dual_fmac and v_dual_cndmask also read their destination / VCC: fmac's destination is
  // op 0, which X only writes if it is the same register, checked below.
  if (!y.ops.empty() && y.ops[0].kind == Operand::Kind::vgpr && y.ops[0].reg == d.reg) return vopd;
  return vopd_in_order;
}

LiftForm vector_lift_form(Handler h) {
  using K = LiftForm::Kind;
#define GPUPORT_INT_FORM(n) \
  if (h == vop_int<I::n>) return {K::int_op, u32(I::n)};
  GPUPORT_LANE_INT_OPS(GPUPORT_INT_FORM)
#undef GPUPORT_INT_FORM
#define GPUPORT_F2_FORM(n) \
  if (h == vop2_f32<F2::n>) return {K::f32_binary, u32(F2::n)};
  GPUPORT_LANE_F2_OPS(GPUPORT_F2_FORM)
#undef GPUPORT_F2_FORM
#define GPUPORT_F1_FORM(n) \
  if (h == vop1_f32<F1::n>) return {K::f32_unary, u32(F1::n)};
  GPUPORT_LANE_F1_OPS(GPUPORT_F1_FORM)
#undef GPUPORT_F1_FORM
#define GPUPORT_D2_FORM(n) \
  if (h == vop_f64<D2::n>) return {K::f64_binary, u32(D2::n)};
  GPUPORT_LANE_D2_OPS(GPUPORT_D2_FORM)
#undef GPUPORT_D2_FORM
#define GPUPORT_CV32_FORM(n) \
  if (h == convert<Cv::n>) return {K::convert32, u32(Cv::n)};
  GPUPORT_LANE_CV32_OPS(GPUPORT_CV32_FORM)
#undef GPUPORT_CV32_FORM
  if (h == readfirstlane) return {K::read_lane, 0};
  if (h == readlane) return {K::read_lane, 1};
  if (h == div_scale<float>) return {K::div_scale, 0};
  if (h == div_fmas<float>) return {K::div_fmas, 0};
  if (h == div_fixup<float>) return {K::div_fixup, 0};
  if (h == fma_f32<0>) return {K::fma_f32, 0};
  if (h == fma_f32<1>) return {K::fma_f32, 1};
  if (h == fma_f32<2>) return {K::fma_f32, 2};
  if (h == fma_f32<3>) return {K::fma_f32, 3};
  if (h == vcmp<false, false>) return {K::compare, 0, false};
  if (h == vcmp<true, false>) return {K::compare, 0, true};
  if (h == vcmp<false, true>) return {K::compare_class, 0, false};
  if (h == vcmp<true, true>) return {K::compare_class, 0, true};
  if (h == cndmask) return {K::cndmask, 0};
  for (int op : {0, 1, 2, 3, 4, 5}) {
    static constexpr Handler carries[] = {add_carry<0>, add_carry<1>, add_carry<2>, add_carry<3>, add_carry<4>, add_carry<5>};
    if (h == carries[op]) return {K::carry, static_cast<u32>(op)};
  }
  if (h == mad64<false>) return {K::mad64, 0};
  if (h == mad64<true>) return {K::mad64, 1};
  if (h == shift64<0>) return {K::shift64, 0};
  if (h == shift64<1>) return {K::shift64, 1};
  if (h == shift64<2>) return {K::shift64, 2};
  return {};
}

Handler resolve_vector(const ParsedInstruction& p, Step& step) {
  std::string m = p.mnemonic;
  if (m.starts_with("v_dual_")) m = "v_" + m.substr(7);  // each VOPD half is its VOP2/VOP1 twin
  for (const auto& e : kVector)
    if (e.mnemonic == m) return e.handler;
  return resolve_compare(m, step);
}

}  // namespace gpuport::emu
