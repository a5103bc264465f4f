// 16-bit and packed vector ALU of gfx1100: the f16/i16/u16 forms of VOP1, VOP2 and VOP3 (LLVM 19's
// "fake16" syntax: 16-bit values in the low or high half of a VGPR, halves chosen by op_sel), the
// VOP3P packed instructions, mixed-precision FMA, dot products and WMMA, with the float modes of
// the MODE register (f16 denormal and round modes, IEEE and DX10 clamp).
//
// Facts from AMD's RDNA3 ISA guide: a 16-bit result replaces only its half of the destination VGPR
// (section 7.1, OPSEL: "dest_vgpr[31:0] = {prev_dst_vgpr[31:16], result[15:0]}"); inline
// constants of 16-bit instructions expand as LLVM's AMDGPU backend documents for the hardware
// (integers sign-extended to 32 bits, float constants as f16 bits in the low half for f16
// operands, as f32 bits otherwise); WMMA matrix layouts from section 7.9.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <limits>
#include <string>
#include <string_view>

#include "emu/semantics.h"

namespace gpuport::emu {
namespace {

using namespace semantics;
using i16 = std::int16_t;

// ---- binary floating-point formats -------------------------------------------------------------
// Every value of these formats, and every product of two of them, is exact in a double; results
// are rounded once from an exact double or from a double rounded to odd (53 bits >= the target's
// precision + 2, so rounding to odd first and then to the target is rounding once).
struct Format {
  int mantissa_bits, bias;
};
constexpr Format kHalf{10, 15}, kBf16{7, 127}, kSingle{23, 127};

// MODE round modes: 0 nearest even, 1 toward +inf, 2 toward -inf, 3 toward zero.
constexpr u32 kNearestEven = 0, kTowardPositive = 1, kTowardNegative = 2, kTowardZero = 3;

constexpr int exponent_bits(Format f) { return std::bit_width(u32(2 * f.bias + 1)); }

// The exact value of an encoding. A NaN becomes a double NaN with the same sign and payload, so
// that rounding it back keeps both.
double value_of(u32 bits, Format f) {
  const u32 exponent_mask = (1u << exponent_bits(f)) - 1;
  const bool negative = (bits >> (f.mantissa_bits + exponent_bits(f))) & 1;
  const u32 exponent = (bits >> f.mantissa_bits) & exponent_mask;
  const u32 mantissa = bits & ((1u << f.mantissa_bits) - 1);
  double v;
  if (exponent == exponent_mask)
    v = mantissa ? bits_f64(0x7ff0000000000000ull | u64(mantissa) << (52 - f.mantissa_bits)) : std::numeric_limits<double>::infinity();
  else if (exponent == 0) v = std::ldexp(double(mantissa), 1 - f.bias - f.mantissa_bits);
  else v = std::ldexp(double(mantissa | 1u << f.mantissa_bits), int(exponent) - f.bias - f.mantissa_bits);
  return negative ? -v : v;
}

// The NaN the hardware makes for an invalid operation (0 * inf, inf - inf, sqrt(-1)): negative and
// quiet (0xfe00 in f16, 0xffc00000 in f32, as the ISA's examples show).
const double kInvalidNaN = bits_f64(0xfff8000000000000ull);

constexpr u32 sign_bit(Format f) { return 1u << (f.mantissa_bits + exponent_bits(f)); }
constexpr u32 infinity_bits(Format f) { return ((1u << exponent_bits(f)) - 1) << f.mantissa_bits; }
constexpr u32 quiet_bit(Format f) { return 1u << (f.mantissa_bits - 1); }
constexpr bool is_nan(u32 bits, Format f) { return (bits & ~sign_bit(f)) > infinity_bits(f); }
constexpr bool is_signaling(u32 bits, Format f) { return is_nan(bits, f) && !(bits & quiet_bit(f)); }
constexpr bool is_denormal(u32 bits, Format f) { return (bits & infinity_bits(f)) == 0 && (bits & ((1u << f.mantissa_bits) - 1)) != 0; }
constexpr u32 quieted(u32 bits, Format f) { return bits | quiet_bit(f); }

// x rounded to the format in the given round mode, on the double's bits. A NaN keeps its sign and
// the top bits of its payload, quieted.
u32 round_to(double x, Format f, u32 mode) {
  const u64 bits = f64_bits(x);
  const bool negative = bits >> 63;
  const u32 sign = negative ? sign_bit(f) : 0;
  const u64 magnitude = bits & ~(1ull << 63);
  if (magnitude >= 0x7ff0000000000000ull) {
    if (magnitude == 0x7ff0000000000000ull) return sign | infinity_bits(f);
    return sign | infinity_bits(f) | quiet_bit(f) | u32((magnitude & ((1ull << 52) - 1)) >> (52 - f.mantissa_bits));
  }
  if (magnitude == 0) return sign;
  const int emin = 1 - f.bias, emax = f.bias;
  const u32 max_finite = infinity_bits(f) - 1;
  auto overflow = [&] {
    const bool to_infinity = mode == kNearestEven || (mode == kTowardPositive && !negative) || (mode == kTowardNegative && negative);
    return sign | (to_infinity ? infinity_bits(f) : max_finite);
  };
  // magnitude = significand * 2^(exponent - 52)
  const int biased = int(magnitude >> 52);
  const u64 significand = (magnitude & ((1ull << 52) - 1)) | (biased ? 1ull << 52 : 0);
  const int exponent = biased ? biased - 1023 : -1022;
  int e = std::max(exponent, emin);  // the result's exponent (the minimum one for denormals)
  if (exponent > emax) return overflow();
  const int drop = 52 - f.mantissa_bits + (e - exponent);  // low bits of the significand that go
  u64 kept, rest, half;
  if (drop >= 64) {  // far below the smallest denormal: below half of it, only sticky
    kept = 0, rest = significand, half = 1ull << 63;
  } else {
    kept = significand >> drop, rest = significand & ((1ull << drop) - 1), half = 1ull << (drop - 1);
  }
  bool up = false;
  switch (mode) {
    case kNearestEven: up = rest > half || (rest == half && (kept & 1)); break;
    case kTowardPositive: up = rest != 0 && !negative; break;
    case kTowardNegative: up = rest != 0 && negative; break;
    default: break;
  }
  if (up) ++kept;
  const u64 implicit = 1ull << f.mantissa_bits;
  if (kept == 2 * implicit) {
    kept = implicit;
    if (++e > emax) return overflow();
  }
  if (kept < implicit) return sign | u32(kept);  // denormal (only at the minimum exponent)
  return sign | u32(e + f.bias) << f.mantissa_bits | u32(kept - implicit);
}

// a + b rounded to odd: the neighbour with an odd last bit when the sum is inexact.
double add_odd(double a, double b) {
  const double s = a + b;
  if (std::isinf(s) || std::isnan(s)) return s;
  const double bv = s - a;
  const double error = (a - (s - bv)) + (b - bv);
  if (error != 0 && !(f64_bits(s) & 1)) return std::nextafter(s, error > 0 ? HUGE_VAL : -HUGE_VAL);
  return s;
}

// An exact sum of doubles that are multiples of 2^-320 below 2^318 (every product of two f32,
// bf16 or f16 values, every f32): fixed point in 640-bit two's complement. For dot products and
// WMMA, whose order of accumulation the ISA leaves open: the exact sum, rounded once.
class ExactSum {
 public:
  void add(double x) {
    if (std::isnan(x)) nan_ = true;
    else if (std::isinf(x)) (x > 0 ? positive_infinity_ : negative_infinity_) = true;
    if (x == 0 || !std::isfinite(x)) return;
    int e;
    const double m = std::frexp(std::fabs(x), &e);
    const u64 bits = static_cast<u64>(std::ldexp(m, 53));
    const int shift = std::max(0, e - 53 + kFraction);
    const int limb = shift / 64, offset = shift % 64;
    const u64 part[2] = {bits << offset, offset ? bits >> (64 - offset) : 0};
    if (std::signbit(x)) {
      u64 borrow = 0;
      for (int i = limb; i < kLimbs; ++i) {
        const u64 sub = i - limb < 2 ? part[i - limb] : 0, before = limbs_[i];
        limbs_[i] = before - sub - borrow;
        borrow = (before < sub || (before == sub && borrow)) ? 1 : 0;
        if (i - limb >= 1 && !borrow) break;
      }
    } else {
      u64 carry = 0;
      for (int i = limb; i < kLimbs; ++i) {
        const u64 add = i - limb < 2 ? part[i - limb] : 0, sum = limbs_[i] + add, total = sum + carry;
        carry = (sum < add || total < sum) ? 1 : 0;
        limbs_[i] = total;
        if (i - limb >= 1 && !carry) break;
      }
    }
  }
  // The sum rounded to odd in a double: exact when it fits, otherwise its leading 53 bits with the
  // last one set when anything below them is nonzero.
  double round_odd() const {
    if (nan_ || (positive_infinity_ && negative_infinity_)) return kInvalidNaN;
    if (positive_infinity_ || negative_infinity_) return positive_infinity_ ? HUGE_VAL : -HUGE_VAL;
    std::array<u64, kLimbs> mag = limbs_;
    const bool negative = mag[kLimbs - 1] >> 63;
    if (negative) {  // two's complement magnitude
      u64 carry = 1;
      for (auto& l : mag) {
        l = ~l + carry;
        carry = (carry && l == 0) ? 1 : 0;
      }
    }
    int top = kLimbs - 1;
    while (top >= 0 && mag[top] == 0) --top;
    if (top < 0) return 0.0;
    const int high_bit = top * 64 + 63 - std::countl_zero(mag[top]);
    const int low = std::max(0, high_bit - 52);  // lowest bit kept
    const int limb = low / 64, offset = low % 64;
    u64 m = mag[limb] >> offset;
    if (offset && limb + 1 < kLimbs) m |= mag[limb + 1] << (64 - offset);
    m &= (1ull << 53) - 1;
    bool sticky = offset && (mag[limb] & ((1ull << offset) - 1));
    for (int i = 0; i < limb && !sticky; ++i) sticky = mag[i] != 0;
    if (sticky) m |= 1;
    const double v = std::ldexp(double(m), low - kFraction);
    return negative ? -v : v;
  }

 private:
  static constexpr int kLimbs = 10, kFraction = 320;
  std::array<u64, kLimbs> limbs_{};
  bool nan_ = false, positive_infinity_ = false, negative_infinity_ = false;
};

// ---- float environment: the MODE register's fields for one format ------------------------------
struct FloatEnv {
  bool flush_in = false, flush_out = false;  // FP_DENORM: bit 0 keeps input denormals, bit 1 output
  u32 round = kNearestEven;
  bool ieee = true, dx10_clamp = true;
};
FloatEnv env_of(const Wave& w, u32 denorm_shift, u32 round_shift) {
  const u32 denorm = (w.mode >> denorm_shift) & 3;
  return {!(denorm & 1), !(denorm & 2), (w.mode >> round_shift) & 3, (w.mode & mode::ieee) != 0, (w.mode & mode::dx10_clamp) != 0};
}
FloatEnv env16(const Wave& w) { return env_of(w, mode::denorm16_64_shift, mode::round16_64_shift); }
FloatEnv env32(const Wave& w) { return env_of(w, mode::denorm32_shift, mode::round32_shift); }

constexpr u32 flush_input(u32 bits, Format f, const FloatEnv& e) { return e.flush_in && is_denormal(bits, f) ? bits & sign_bit(f) : bits; }
// An f16 value as a double from its bits (value_of, for the hot path of the f16 arithmetic).
[[gnu::always_inline]] inline double half_value(u16 h) {
  const u32 exponent = (h >> 10) & 31, mantissa = h & 0x3ff;
  if (exponent == 0) {
    const double v = double(mantissa) * 0x1p-24;
    return (h & 0x8000) ? -v : v;
  }
  const u64 e = exponent == 31 ? 0x7ff : exponent - 15 + 1023;
  return bits_f64(u64(h & 0x8000) << 48 | e << 52 | u64(mantissa) << 42);
}
[[gnu::always_inline]] inline double in16(u16 h, const FloatEnv& e) { return half_value(u16(flush_input(h, kHalf, e))); }
double in32(u32 x, const FloatEnv& e) { return value_of(flush_input(x, kSingle, e), kSingle); }

// The output modifiers of the ISA (7.2.3.1): OMOD scales only when IEEE mode is off and output
// denormals are flushed (then -0 becomes +0); CLAMP limits to [0, 1] (-0 to +0) and turns NaN into
// 0 under DX10_CLAMP.
double omod_factor(const Modifiers& m, const FloatEnv& e) {
  if (!m.omod || e.ieee || !e.flush_out) return 1.0;
  return m.omod == 1 ? 2.0 : m.omod == 2 ? 4.0 : 0.5;
}
u32 finish(double exact, Format f, const Modifiers& m, const FloatEnv& e) {
  const double scale = omod_factor(m, e);
  u32 r = round_to(exact * scale, f, e.round);
  if (e.flush_out && is_denormal(r, f)) r &= sign_bit(f);
  if (scale != 1.0 && r == sign_bit(f)) r = 0;
  if (m.clamp) {
    const u32 one = u32(f.bias) << f.mantissa_bits;
    if (is_nan(r, f)) r = e.dx10_clamp ? 0 : r;
    else if (r & sign_bit(f)) r = 0;
    else if (r > one) r = one;
  }
  return r;
}
u16 finish16(double exact, const Modifiers& m, const FloatEnv& e) { return u16(finish(exact, kHalf, m, e)); }

// A NaN operand decides the result of arithmetic: the first one, quieted.
bool first_nan(std::initializer_list<u32> in, Format f, u32& out) {
  for (u32 x : in)
    if (is_nan(x, f)) {
      out = quieted(x, f);
      return true;
    }
  return false;
}

// ---- operands -----------------------------------------------------------------------------------
// How an operand's inline float constant expands: f16 bits in the low half (f16 operands), f32
// bits (32-bit and integer operands), the f32 constant's upper half in both halves (bf16), or f16
// bits in both halves (the sources the ISA says replicate: DOT2ACC, DOT2_F16_F16, WMMA's C).
enum class Type : std::uint8_t { f16, f16_both, bf16, b32 };

u32 constant_bits(const Operand& op, Type t) {
  const double v = op.fvalue;
  switch (t) {
    case Type::f16: return round_to(v, kHalf, kNearestEven);
    case Type::f16_both: return round_to(v, kHalf, kNearestEven) * 0x10001u;
    case Type::bf16: return (f32_bits(static_cast<float>(v)) >> 16) * 0x10001u;
    default: return f32_bits(static_cast<float>(v));
  }
}

// One 32-bit source read per lane without branches: a VGPR column or one value for all lanes.
class Src {
 public:
  Src(const Wave& w, const Operand& op, Type t) {
    if (op.kind == Operand::Kind::vgpr) {
      p_ = &w.v[op.reg * w.size];
      step_ = 1;
    } else {
      value_ = op.kind == Operand::Kind::float_const ? constant_bits(op, t) : read_scalar(w, op);
      if (t == Type::f16_both && op.kind == Operand::Kind::int_const) value_ = (value_ & 0xffff) * 0x10001u;
      p_ = &value_;
      step_ = 0;
    }
  }
  Src(const Src&) = delete;
  Src& operator=(const Src&) = delete;
  [[gnu::always_inline]] u32 operator[](u32 lane) const { return p_[lane * step_]; }

 private:
  const u32* p_;
  u32 step_, value_ = 0;
};

[[gnu::always_inline]] inline u16 half_of(u32 bits, bool high) { return u16(high ? bits >> 16 : bits); }
// abs, then neg, on an f16 value (VOP3 input modifiers).
[[gnu::always_inline]] inline u16 modified16(u16 h, const Operand& o) {
  if (o.abs) h &= 0x7fff;
  if (o.neg) h ^= 0x8000;
  return h;
}
[[gnu::always_inline]] inline u32 modified32(u32 x, const Operand& o) {
  if (o.abs) x &= 0x7fffffffu;
  if (o.neg) x ^= 0x80000000u;
  return x;
}
// The 16-bit result written into one half of the destination; the other half is kept.
[[gnu::always_inline]] inline void put16(Wave& w, u32 reg, u32 lane, bool high, u16 v) {
  u32& d = w.vgpr(reg, lane);
  d = high ? (d & 0xffffu) | u32(v) << 16 : (d & 0xffff0000u) | v;
}
bool bit(u32 bits, u32 i) { return (bits >> i) & 1; }

// ---- f16 min/max as the ISA defines them (IEEE mode: a signaling NaN is quieted and returned) ----
bool less16(u16 a, u16 b) {  // a < b with -0 < +0
  const double x = value_of(a, kHalf), y = value_of(b, kHalf);
  return x < y || (x == 0 && y == 0 && (a & 0x8000) && !(b & 0x8000));
}
u16 min16(u16 a, u16 b, bool ieee) {
  if (ieee) {
    if (is_signaling(a, kHalf)) return u16(quieted(a, kHalf));
    if (is_signaling(b, kHalf)) return u16(quieted(b, kHalf));
  }
  if (is_nan(b, kHalf)) return a;
  if (is_nan(a, kHalf)) return b;
  return less16(a, b) ? a : b;
}
u16 max16(u16 a, u16 b, bool ieee) {
  if (ieee) {
    if (is_signaling(a, kHalf)) return u16(quieted(a, kHalf));
    if (is_signaling(b, kHalf)) return u16(quieted(b, kHalf));
  }
  if (is_nan(b, kHalf)) return a;
  if (is_nan(a, kHalf)) return b;
  return less16(b, a) ? a : b;
}
u16 med3_16(u16 a, u16 b, u16 c, bool ieee) {
  if (is_nan(a, kHalf) || is_nan(b, kHalf) || is_nan(c, kHalf)) return min16(min16(a, b, ieee), c, ieee);
  const double top = value_of(max16(max16(a, b, ieee), c, ieee), kHalf);
  if (top == value_of(a, kHalf)) return max16(b, c, ieee);
  if (top == value_of(b, kHalf)) return max16(a, c, ieee);
  return max16(a, b, ieee);
}

// Correctly rounded to odd: 1/x and sqrt(x) in double, nudged by their exact remainders.
double reciprocal_odd(double x) {
  const double q = 1.0 / x;
  if (!std::isfinite(q) || q == 0) return q;
  const double r = std::fma(q, x, -1.0);  // exact: q*x - 1
  if (r != 0 && !(f64_bits(q) & 1)) return std::nextafter(q, r > 0 ? 0.0 : std::copysign(HUGE_VAL, q));  // r > 0: |q| too big
  return q;
}
double sqrt_odd(double x) {
  const double s = std::sqrt(x);
  if (!std::isfinite(s) || s == 0) return s;
  const double r = std::fma(s, s, -x);
  if (r != 0 && !(f64_bits(s) & 1)) return std::nextafter(s, r > 0 ? 0.0 : HUGE_VAL);
  return s;
}
double round_half_even(double x) {  // ties to even, sign of zero kept
  const double f = std::floor(x), rest = x - f;
  double r = f;
  if (rest > 0.5 || (rest == 0.5 && std::fmod(f, 2.0) != 0)) r = f + 1;
  return r == 0 ? std::copysign(0.0, x) : r;
}

// ---- f16 VOP1/VOP2/VOP3 arithmetic --------------------------------------------------------------
enum class H : std::uint8_t {
  add, sub, subrev, mul, min, max, ldexp, fma, fmac, fmamk, fmaak, min3, max3, med3, minmax, maxmin, div_fixup,
  rcp, sqrt, rsq, log, exp, sin, cos, floor, ceil, trunc, rndne, fract, frexp_mant, cvt_f16_u16, cvt_f16_i16,
};

constexpr bool is_min_max(H op) {
  return op == H::min || op == H::max || op == H::min3 || op == H::max3 || op == H::med3 || op == H::minmax || op == H::maxmin;
}

// One f16 result from up to three f16 sources (x, y, z as printed; fmac's z is the destination).
u16 compute16(H op, u16 x, u16 y, u16 z, const Modifiers& m, const FloatEnv& e) {
  if (is_min_max(op)) {  // no rounding; input denormal mode only (ISA notes on V_MIN_F16)
    x = u16(flush_input(x, kHalf, e)), y = u16(flush_input(y, kHalf, e)), z = u16(flush_input(z, kHalf, e));
    u16 r = 0;
    switch (op) {
      case H::min: r = min16(x, y, e.ieee); break;
      case H::max: r = max16(x, y, e.ieee); break;
      case H::min3: r = min16(min16(x, y, e.ieee), z, e.ieee); break;
      case H::max3: r = max16(max16(x, y, e.ieee), z, e.ieee); break;
      case H::med3: r = med3_16(x, y, z, e.ieee); break;
      case H::minmax: r = max16(min16(x, y, e.ieee), z, e.ieee); break;
      default: r = min16(max16(x, y, e.ieee), z, e.ieee); break;  // maxmin
    }
    return (m.clamp || m.omod) ? finish16(value_of(r, kHalf), m, e) : r;
  }
  if (op == H::div_fixup) {  // S0 quotient, S1 denominator, S2 numerator
    const double den = in16(y, e), num = in16(z, e);
    const u16 sign = u16((y ^ z) & 0x8000);
    if (is_nan(z, kHalf)) return u16(quieted(z, kHalf));
    if (is_nan(y, kHalf)) return u16(quieted(y, kHalf));
    if ((den == 0 && num == 0) || (std::isinf(den) && std::isinf(num))) return 0xfe00;
    if (den == 0 || std::isinf(num)) return sign | 0x7c00;
    if (std::isinf(den) || num == 0) return sign;
    return sign | (x & 0x7fff);
  }
  if (op == H::cvt_f16_u16) return finish16(double(x), m, e);
  if (op == H::cvt_f16_i16) return finish16(double(i16(x)), m, e);
  if (op == H::frexp_mant && (x & 0x7c00) == 0x7c00) return x;  // inf and NaN pass unchanged
  u32 nan = 0;
  const bool binary = op == H::add || op == H::sub || op == H::subrev || op == H::mul;
  const bool ternary = op == H::fma || op == H::fmac || op == H::fmamk || op == H::fmaak;
  if (binary ? first_nan({x, y}, kHalf, nan) : ternary ? first_nan({x, y, z}, kHalf, nan) : first_nan({x}, kHalf, nan))
    return finish16(value_of(nan, kHalf), m, e);
  const double a = in16(x, e);
  double r = 0;
  switch (op) {
    case H::add: r = a + in16(y, e); break;  // exact in double
    case H::sub: r = a - in16(y, e); break;
    case H::subrev: r = in16(y, e) - a; break;
    case H::mul: r = a * in16(y, e); break;
    case H::ldexp: r = std::ldexp(a, std::clamp<int>(i16(y), -64, 64)); break;
    case H::fma:
    case H::fmac:
    case H::fmamk:
    case H::fmaak: r = add_odd(a * in16(y, e), in16(z, e)); break;  // the product is exact
    case H::rcp: r = reciprocal_odd(a); break;
    case H::sqrt: r = sqrt_odd(a); break;
    case H::rsq: r = 1.0 / std::sqrt(a); break;
    case H::log: r = std::log2(a); break;
    case H::exp: r = std::exp2(a); break;
    case H::sin:
    case H::cos: {
      if (std::isinf(a)) {
        r = kInvalidNaN;
        break;
      }
      // Reduced exactly to [-1/2, 1/2] turns first (period 1). sin(+-0) keeps the zero's sign; a
      // nonzero integer gives +0 (the ISA's examples: sin(0x8000) = 0x8000, sin(0xfbff) = 0x0000).
      const double turns = a - round_half_even(a);
      r = op == H::sin ? std::sin(turns * 6.283185307179586) : std::cos(turns * 6.283185307179586);
      if (op == H::sin && a == 0) r = a;
      break;
    }
    case H::floor: r = std::floor(a); break;
    case H::ceil: r = std::ceil(a); break;
    case H::trunc: r = std::trunc(a); break;
    case H::rndne: r = round_half_even(a); break;
    case H::fract: r = a - std::floor(a); break;
    case H::frexp_mant: {
      int ex;
      r = std::frexp(a, &ex);
      break;
    }
    default: break;
  }
  return finish16(std::isnan(r) ? kInvalidNaN : r, m, e);  // no NaN came in: an invalid operation
}

// v_<op>_f16 d, s0[, s1[, s2]]: Sources printed after the destination; op_sel bit i picks the
// half of source i, bit Sources the half of the destination (VOP3).
template <H Op, int Sources>
bool f16_op(Wave& w, const Step& s, Context&) {
  const FloatEnv e = env16(w);
  const Operand& d = op(s, 0);
  const Operand& o0 = op(s, 1);
  const Operand& o1 = op(s, 2);
  const Operand& o2 = Op == H::fmac ? d : op(s, 3);
  const Type t = (Op == H::cvt_f16_u16 || Op == H::cvt_f16_i16 || Op == H::ldexp) ? Type::b32 : Type::f16;
  const Src a(w, o0, t), b(w, o1, Op == H::ldexp ? Type::b32 : Type::f16), c(w, o2, Type::f16);
  const u32 sel = s.mods.op_sel;
  const bool dst_high = bit(sel, Sources);
  for_active(w, [&](u32 lane) {
    const u16 x = modified16(half_of(a[lane], bit(sel, 0)), o0);
    const u16 y = Sources > 1 ? modified16(half_of(b[lane], bit(sel, 1)), o1) : 0;
    const u16 z = (Sources > 2 || Op == H::fmac) ? modified16(half_of(c[lane], Op == H::fmac ? dst_high : bit(sel, 2)), o2) : 0;
    put16(w, d.reg, lane, dst_high, compute16(Op, x, y, z, s.mods, e));
  });
  return true;
}

// ---- conversions and other f16 <-> integer/f32 forms ----------------------------------------------
enum class C : std::uint8_t {
  u16_f16, i16_f16, norm_i16_f16, norm_u16_f16, frexp_exp_i16_f16, f16_f32, f32_f16, i32_i16, u32_u16, not_b16, sat_pk_u8_i16,
};

i32 snorm(double x) {  // NaN 0; [-1, 1] scaled by 32767, nearest even
  if (std::isnan(x)) return 0;
  return i32(round_half_even(std::clamp(x, -1.0, 1.0) * 32767.0));
}
u32 unorm(double x) {
  if (std::isnan(x)) return 0;
  return u32(round_half_even(std::clamp(x, 0.0, 1.0) * 65535.0));
}
template <typename T>
T truncate_saturated(double x) {  // toward zero, saturated, NaN 0
  if (std::isnan(x)) return 0;
  const double t = std::trunc(x);
  if (t <= double(std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
  if (t >= double(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
  return static_cast<T>(t);
}

template <C Op>
bool convert16(Wave& w, const Step& s, Context&) {
  const FloatEnv e16 = env16(w), e32 = env32(w);
  const Operand& d = op(s, 0);
  const Operand& o = op(s, 1);
  const Src a(w, o, Op == C::f16_f32 ? Type::b32 : Type::f16);
  const bool src_high = bit(s.mods.op_sel, 0), dst_high = bit(s.mods.op_sel, 1);
  for_active(w, [&](u32 lane) {
    const u32 raw = a[lane];
    const u16 h = modified16(half_of(raw, src_high), o);
    switch (Op) {
      case C::u16_f16: put16(w, d.reg, lane, dst_high, truncate_saturated<u16>(in16(h, e16))); break;
      case C::i16_f16: put16(w, d.reg, lane, dst_high, u16(truncate_saturated<i16>(in16(h, e16)))); break;
      case C::norm_i16_f16: put16(w, d.reg, lane, dst_high, u16(snorm(in16(h, e16)))); break;
      case C::norm_u16_f16: put16(w, d.reg, lane, dst_high, u16(unorm(in16(h, e16)))); break;
      case C::frexp_exp_i16_f16: {
        const double x = in16(h, e16);
        int ex = 0;
        if (std::isfinite(x)) std::frexp(x, &ex);
        put16(w, d.reg, lane, dst_high, u16(ex));
        break;
      }
      case C::f16_f32: {
        const u32 x = modified32(raw, o);
        put16(w, d.reg, lane, dst_high, finish16(in32(x, e32), s.mods, e16));
        break;
      }
      case C::f32_f16: w.vgpr(d.reg, lane) = finish(in16(h, e16), kSingle, s.mods, e32); break;
      case C::i32_i16: w.vgpr(d.reg, lane) = u32(i32(i16(half_of(raw, src_high)))); break;
      case C::u32_u16: w.vgpr(d.reg, lane) = half_of(raw, src_high); break;
      case C::not_b16: put16(w, d.reg, lane, dst_high, u16(~half_of(raw, src_high))); break;
      case C::sat_pk_u8_i16: {
        auto sat8 = [](u16 v) { const i32 n = i16(v); return u32(std::clamp(n, 0, 255)); };
        put16(w, d.reg, lane, dst_high, u16(sat8(u16(raw)) | sat8(u16(raw >> 16)) << 8));
        break;
      }
    }
  });
  return true;
}

// ---- 16-bit integer VOP2/VOP3 -------------------------------------------------------------------
enum class I16 : std::uint8_t {
  add_u, add_i, sub_u, sub_i, mul_lo_u, min_u, max_u, min_i, max_i, lshlrev, lshrrev, ashrrev, and_, or_, xor_,
  mad_u, mad_i, min3_u, max3_u, med3_u, min3_i, max3_i, med3_i,
};

template <typename T>
T med3(T a, T b, T c) {
  const T top = std::max({a, b, c});
  if (top == a) return std::max(b, c);
  if (top == b) return std::max(a, c);
  return std::max(a, b);
}

template <I16 Op, int Sources>
bool int16_op(Wave& w, const Step& s, Context&) {
  const Operand& d = op(s, 0);
  const Src a(w, op(s, 1), Type::b32), b(w, op(s, 2), Type::b32), c(w, op(s, 3), Type::b32);
  const u32 sel = s.mods.op_sel;
  const bool dst_high = bit(sel, Sources), clamp = s.mods.clamp;
  for_active(w, [&](u32 lane) {
    const u16 x = half_of(a[lane], bit(sel, 0)), y = half_of(b[lane], bit(sel, 1));
    const u16 z = Sources > 2 ? half_of(c[lane], bit(sel, 2)) : 0;
    const i32 sx = i16(x), sy = i16(y), sz = i16(z);
    auto sat_u = [&](i64 v) { return u16(clamp ? std::clamp<i64>(v, 0, 0xffff) : v); };
    auto sat_i = [&](i64 v) { return u16(clamp ? std::clamp<i64>(v, -0x8000, 0x7fff) : v); };
    u16 r = 0;
    switch (Op) {
      case I16::add_u: r = sat_u(i64(x) + y); break;
      case I16::add_i: r = sat_i(i64(sx) + sy); break;
      case I16::sub_u: r = sat_u(i64(x) - y); break;
      case I16::sub_i: r = sat_i(i64(sx) - sy); break;
      case I16::mul_lo_u: r = sat_u(i64(x) * y); break;
      case I16::min_u: r = std::min(x, y); break;
      case I16::max_u: r = std::max(x, y); break;
      case I16::min_i: r = u16(std::min(sx, sy)); break;
      case I16::max_i: r = u16(std::max(sx, sy)); break;
      case I16::lshlrev: r = u16(y << (x & 15)); break;
      case I16::lshrrev: r = u16(y >> (x & 15)); break;
      case I16::ashrrev: r = u16(sy >> (x & 15)); break;
      case I16::and_: r = x & y; break;
      case I16::or_: r = x | y; break;
      case I16::xor_: r = x ^ y; break;
      case I16::mad_u: r = sat_u(i64(x) * y + z); break;
      case I16::mad_i: r = sat_i(i64(sx) * sy + sz); break;
      case I16::min3_u: r = std::min({x, y, z}); break;
      case I16::max3_u: r = std::max({x, y, z}); break;
      case I16::med3_u: r = med3(x, y, z); break;
      case I16::min3_i: r = u16(std::min({sx, sy, sz})); break;
      case I16::max3_i: r = u16(std::max({sx, sy, sz})); break;
      case I16::med3_i: r = u16(med3(sx, sy, sz)); break;
    }
    put16(w, d.reg, lane, dst_high, r);
  });
  return true;
}

// v_cndmask_b16 d, s0 (false), s1 (true), mask.
bool cndmask16(Wave& w, const Step& s, Context&) {
  const Operand& d = op(s, 0);
  const Src a(w, op(s, 1), Type::f16), b(w, op(s, 2), Type::f16);
  const u64 mask = read_mask(w, op(s, 3));
  const u32 sel = s.mods.op_sel;
  for_active(w, [&](u32 lane) {
    const bool take_b = (mask >> lane) & 1;
    const u16 v = take_b ? modified16(half_of(b[lane], bit(sel, 1)), op(s, 2)) : modified16(half_of(a[lane], bit(sel, 0)), op(s, 1));
    put16(w, d.reg, lane, bit(sel, 3), v);
  });
  return true;
}

// v_mov_b16 d, s: the one 16-bit form LLVM 19 prints with true16 register halves on gfx1100
// (v1.l, v1.h, Operand::high16); the other half of the destination is kept.
bool mov16(Wave& w, const Step& s, Context&) {
  const Operand& d = op(s, 0);
  const Operand& o = op(s, 1);
  const Src a(w, o, Type::f16);
  for_active(w, [&](u32 lane) { put16(w, d.reg, lane, d.high16, modified16(half_of(a[lane], o.high16), o)); });
  return true;
}

// ---- 32-bit results from 16-bit or byte inputs --------------------------------------------------
enum class W : std::uint8_t {
  mad_u32_u16, mad_i32_i16, sad_u16, sad_u8, sad_hi_u8, msad_u8, lerp_u8, pack_b32_f16, cvt_pk_norm_i16_f16, cvt_pk_norm_u16_f16,
  cvt_pk_norm_i16_f32, cvt_pk_norm_u16_f32, cvt_pk_i16_f32, cvt_pk_u16_f32, cvt_pk_u16_u32, cvt_pk_i16_i32, cvt_pk_rtz_f16_f32, cvt_pk_u8_f32,
};

u32 absdiff(u32 a, u32 b) { return a > b ? a - b : b - a; }
u32 sad_u8(u32 a, u32 b, u32 acc, bool masked) {
  for (int i = 0; i < 4; ++i) {
    const u32 x = (a >> (8 * i)) & 0xff, y = (b >> (8 * i)) & 0xff;
    if (!masked || y != 0) acc += absdiff(x, y);
  }
  return acc;
}

template <W Op>
bool wide_op(Wave& w, const Step& s, Context&) {
  const FloatEnv e16 = env16(w), e32 = env32(w);
  const Operand& d = op(s, 0);
  const Operand& o0 = op(s, 1);
  const Operand& o1 = op(s, 2);
  constexpr bool f16_sources = Op == W::pack_b32_f16 || Op == W::cvt_pk_norm_i16_f16 || Op == W::cvt_pk_norm_u16_f16;
  const Src a(w, o0, f16_sources ? Type::f16 : Type::b32), b(w, o1, f16_sources ? Type::f16 : Type::b32), c(w, op(s, 3), Type::b32);
  const u32 sel = s.mods.op_sel;
  const bool clamp = s.mods.clamp;
  for_active(w, [&](u32 lane) {
    const u32 x = a[lane], y = b[lane];
    auto z = [&] { return c[lane]; };
    u32 r = 0;
    switch (Op) {
      case W::mad_u32_u16: {
        const u64 t = u64(half_of(x, bit(sel, 0))) * half_of(y, bit(sel, 1)) + z();
        r = clamp ? u32(std::min<u64>(t, 0xffffffffu)) : u32(t);
        break;
      }
      case W::mad_i32_i16: {
        const i64 t = i64(i16(half_of(x, bit(sel, 0)))) * i16(half_of(y, bit(sel, 1))) + i32(z());
        r = u32(clamp ? std::clamp<i64>(t, INT32_MIN, INT32_MAX) : t);
        break;
      }
      case W::sad_u16: r = z() + absdiff(x & 0xffff, y & 0xffff) + absdiff(x >> 16, y >> 16); break;
      case W::sad_u8: r = sad_u8(x, y, z(), false); break;
      case W::sad_hi_u8: r = (sad_u8(x, y, 0, false) << 16) + z(); break;
      case W::msad_u8: r = sad_u8(x, y, z(), true); break;
      case W::lerp_u8:
        for (int i = 0; i < 4; ++i) r += ((((x >> (8 * i)) & 0xff) + ((y >> (8 * i)) & 0xff) + ((z() >> (8 * i)) & 1)) >> 1) << (8 * i);
        break;
      case W::pack_b32_f16: r = modified16(half_of(x, bit(sel, 0)), o0) | u32(modified16(half_of(y, bit(sel, 1)), o1)) << 16; break;
      case W::cvt_pk_norm_i16_f16:
      case W::cvt_pk_norm_u16_f16: {
        const double p = in16(modified16(half_of(x, bit(sel, 0)), o0), e16), q = in16(modified16(half_of(y, bit(sel, 1)), o1), e16);
        r = Op == W::cvt_pk_norm_i16_f16 ? (u32(snorm(p)) & 0xffff) | u32(snorm(q)) << 16 : unorm(p) | unorm(q) << 16;
        break;
      }
      case W::cvt_pk_norm_i16_f32:
      case W::cvt_pk_norm_u16_f32: {
        const double p = in32(modified32(x, o0), e32), q = in32(modified32(y, o1), e32);
        r = Op == W::cvt_pk_norm_i16_f32 ? (u32(snorm(p)) & 0xffff) | u32(snorm(q)) << 16 : unorm(p) | unorm(q) << 16;
        break;
      }
      case W::cvt_pk_i16_f32:
        r = u32(u16(truncate_saturated<i16>(in32(modified32(x, o0), e32)))) | u32(u16(truncate_saturated<i16>(in32(modified32(y, o1), e32)))) << 16;
        break;
      case W::cvt_pk_u16_f32:
        r = u32(truncate_saturated<u16>(in32(modified32(x, o0), e32))) | u32(truncate_saturated<u16>(in32(modified32(y, o1), e32))) << 16;
        break;
      case W::cvt_pk_u16_u32: r = std::min(x, 0xffffu) | std::min(y, 0xffffu) << 16; break;
      case W::cvt_pk_i16_i32: r = u32(u16(std::clamp<i32>(i32(x), -0x8000, 0x7fff))) | u32(u16(std::clamp<i32>(i32(y), -0x8000, 0x7fff))) << 16; break;
      case W::cvt_pk_rtz_f16_f32: {
        FloatEnv rtz = e16;
        rtz.round = kTowardZero;
        r = finish(in32(modified32(x, o0), e32), kHalf, s.mods, rtz) | finish(in32(modified32(y, o1), e32), kHalf, s.mods, rtz) << 16;
        break;
      }
      case W::cvt_pk_u8_f32: {  // f32_to_u8 of S0 into byte S1[1:0] of S2
        const double v = in32(modified32(x, o0), e32);
        const u32 byte = std::isnan(v) ? 0 : u32(round_half_even(std::clamp(v, 0.0, 255.0)));
        const u32 shift = 8 * (y & 3);
        r = (z() & ~(0xffu << shift)) | byte << shift;
        break;
      }
    }
    w.vgpr(d.reg, lane) = r;
  });
  return true;
}

// v_qsad_pk_u16_u8 / v_mqsad_pk_u16_u8 d[2], s0[2], s1, s2[2]; v_mqsad_u32_u8 d[4], s0[2], s1, s2[4]:
// four SADs of S1 against byte windows of the 64-bit S0.
template <bool Masked, bool Wide>
bool quad_sad(Wave& w, const Step& s, Context&) {
  const Operand& d = op(s, 0);
  for_active(w, [&](u32 lane) {
    const u64 x = read_lane64(w, op(s, 1), lane);
    const u32 y = read_lane(w, op(s, 2), lane);
    const Operand& acc = op(s, 3);
    std::array<u32, 4> out{};
    for (int i = 0; i < 4; ++i) {
      const u32 window = u32(x >> (8 * i));
      if (Wide) {
        const u32 c = acc.kind == Operand::Kind::vgpr ? w.vgpr(acc.reg + i, lane) : (i == 0 ? read_lane(w, acc, lane) : 0);
        out[i] = sad_u8(window, y, c, Masked);
      } else {
        const u64 c64 = read_lane64(w, acc, lane);
        out[i] = sad_u8(window, y, u32(c64 >> (16 * i)) & 0xffff, Masked) & 0xffff;
      }
    }
    if (Wide)
      for (int i = 0; i < 4; ++i) w.vgpr(d.reg + i, lane) = out[i];
    else write_lane64(w, d.reg, lane, u64(out[0] | out[1] << 16) | u64(out[2] | out[3] << 16) << 32);
  });
  return true;
}

// ---- VOP3P packed math ---------------------------------------------------------------------------
enum class P : std::uint8_t {
  mad_i16, mul_lo_u16, add_i16, sub_i16, lshlrev_b16, lshrrev_b16, ashrrev_i16, max_i16, min_i16, mad_u16, add_u16, sub_u16,
  max_u16, min_u16, fma_f16, add_f16, mul_f16, min_f16, max_f16, fmac_f16,
};
constexpr bool is_float(P op) { return op >= P::fma_f16; }

// One half of a packed operation: the selected 16-bit inputs in, the 16-bit result out.
u16 packed_half(P op, u16 x, u16 y, u16 z, const Modifiers& m, const FloatEnv& e) {
  if (is_float(op)) {
    Modifiers no_omod = m;  // packed f16 results ignore OMOD (ISA 7.2.3.1)
    no_omod.omod = 0;
    switch (op) {
      case P::add_f16: return compute16(H::add, x, y, 0, no_omod, e);
      case P::mul_f16: return compute16(H::mul, x, y, 0, no_omod, e);
      case P::min_f16: return compute16(H::min, x, y, 0, no_omod, e);
      case P::max_f16: return compute16(H::max, x, y, 0, no_omod, e);
      default: return compute16(H::fma, x, y, z, no_omod, e);
    }
  }
  const bool clamp = m.clamp;
  const i32 sx = i16(x), sy = i16(y), sz = i16(z);
  auto sat_u = [&](i64 v) { return u16(clamp ? std::clamp<i64>(v, 0, 0xffff) : v); };
  auto sat_i = [&](i64 v) { return u16(clamp ? std::clamp<i64>(v, -0x8000, 0x7fff) : v); };
  switch (op) {
    case P::mad_i16: return sat_i(i64(sx) * sy + sz);
    case P::mul_lo_u16: return sat_u(i64(x) * y);
    case P::add_i16: return sat_i(i64(sx) + sy);
    case P::sub_i16: return sat_i(i64(sx) - sy);
    case P::lshlrev_b16: return u16(y << (x & 15));
    case P::lshrrev_b16: return u16(y >> (x & 15));
    case P::ashrrev_i16: return u16(sy >> (x & 15));
    case P::max_i16: return u16(std::max(sx, sy));
    case P::min_i16: return u16(std::min(sx, sy));
    case P::mad_u16: return sat_u(i64(x) * y + z);
    case P::add_u16: return sat_u(i64(x) + y);
    case P::sub_u16: return sat_u(i64(x) - y);
    case P::max_u16: return std::max(x, y);
    default: return std::min(x, y);  // min_u16
  }
}

// Defaults of VOP3P's op_sel_hi when LLVM does not print it: every source's high half.
u32 op_sel_hi_of(const Modifiers& m) { return m.op_sel_hi_given ? m.op_sel_hi : 7u; }

// v_pk_<op> d, s0, s1[, s2]: for each half, op_sel (low result) / op_sel_hi (high result) pick
// the source halves; neg_lo / neg_hi negate float inputs.
template <P Op, int Sources>
bool packed(Wave& w, const Step& s, Context&) {
  const FloatEnv e = env16(w);
  const Operand& d = op(s, 0);
  const Type t = is_float(Op) ? Type::f16 : Type::b32;
  // v_pk_fmac_f16 (VOP2) has no op_sel: its inline constants are the f16 value in the low half.
  const Src a(w, op(s, 1), t), b(w, op(s, 2), t), c(w, Op == P::fmac_f16 ? d : op(s, 3), t);
  const u32 lo_sel = s.mods.op_sel, hi_sel = Op == P::fmac_f16 ? 7u : op_sel_hi_of(s.mods);
  const u32 neg_lo = is_float(Op) ? s.mods.neg_lo : 0, neg_hi = is_float(Op) ? s.mods.neg_hi : 0;
  for_active(w, [&](u32 lane) {
    const u32 src[3] = {a[lane], b[lane], Sources > 2 || Op == P::fmac_f16 ? c[lane] : 0u};
    u16 in_lo[3], in_hi[3];
    for (int i = 0; i < 3; ++i) {
      in_lo[i] = u16(half_of(src[i], bit(lo_sel, i)) ^ (bit(neg_lo, i) ? 0x8000 : 0));
      in_hi[i] = u16(half_of(src[i], bit(hi_sel, i)) ^ (bit(neg_hi, i) ? 0x8000 : 0));
    }
    const u16 lo = packed_half(Op, in_lo[0], in_lo[1], in_lo[2], s.mods, e);
    const u16 hi = packed_half(Op, in_hi[0], in_hi[1], in_hi[2], s.mods, e);
    w.vgpr(d.reg, lane) = lo | u32(hi) << 16;
  });
  return true;
}

// ---- v_fma_mix_f32 / v_fma_mixlo_f16 / v_fma_mixhi_f16 ------------------------------------------
// {op_sel_hi[i], op_sel[i]} says what source i is: 0x f32, 10 the low f16, 11 the high f16. The
// product and sum are exact and rounded once to the result's format (the fused multiply-add the
// ISA names; the f16 forms do not round to f32 first).
template <int Out>  // 0 f32, 1 low f16, 2 high f16
bool fma_mix(Wave& w, const Step& s, Context&) {
  const FloatEnv e16 = env16(w), e32 = env32(w);
  const Operand& d = op(s, 0);
  const u32 sel = s.mods.op_sel, hi = s.mods.op_sel_hi;  // not printed: 0, every source f32
  const Operand* o[3] = {&op(s, 1), &op(s, 2), &op(s, 3)};
  const Src a(w, *o[0], bit(hi, 0) ? Type::f16 : Type::b32), b(w, *o[1], bit(hi, 1) ? Type::f16 : Type::b32),
      c(w, *o[2], bit(hi, 2) ? Type::f16 : Type::b32);
  const Src* src[3] = {&a, &b, &c};
  for_active(w, [&](u32 lane) {
    double in[3];
    double nan = 0;
    bool has_nan = false;
    for (int i = 0; i < 3; ++i) {
      const u32 raw = (*src[i])[lane];
      if (bit(hi, i)) {
        const u16 h = modified16(half_of(raw, bit(sel, i)), *o[i]);
        in[i] = in16(h, e16);
      } else {
        in[i] = in32(modified32(raw, *o[i]), e32);
      }
      if (!has_nan && std::isnan(in[i])) has_nan = true, nan = in[i];
    }
    double r = has_nan ? nan : add_odd(in[0] * in[1], in[2]);  // f32 x f32 is exact in a double
    if (!has_nan && std::isnan(r)) r = kInvalidNaN;
    if (Out == 0) w.vgpr(d.reg, lane) = finish(r, kSingle, s.mods, e32);
    else put16(w, d.reg, lane, Out == 2, finish16(r, s.mods, e16));
  });
  return true;
}

// ---- dot products --------------------------------------------------------------------------------
// v_dot2_f32_f16 / v_dot2_f32_bf16 d, s0, s1, s2 and v_dot2acc_f32_f16 d, s0, s1 (d is the
// addend): as the ISA's pseudocode, c + a.lo * b.lo, rounded to f32, + a.hi * b.hi, rounded to f32
// (each product is exact). The ISA ignores CLAMP for float dot products.
template <bool Bf16, bool Accumulate>
bool dot2_f32(Wave& w, const Step& s, Context&) {
  const FloatEnv e16 = env16(w), e32 = env32(w);
  const Operand& d = op(s, 0);
  const Format f = Bf16 ? kBf16 : kHalf;
  const Type t = Accumulate ? Type::f16_both : Bf16 ? Type::bf16 : Type::f16;
  const Src a(w, op(s, 1), t), b(w, op(s, 2), t), c(w, Accumulate ? d : op(s, 3), Type::b32);
  const u32 lo_sel = s.mods.op_sel, hi_sel = Accumulate ? 7u : op_sel_hi_of(s.mods);
  const u32 neg_lo = s.mods.neg_lo, neg_hi = s.mods.neg_hi;
  for_active(w, [&](u32 lane) {
    const u32 x = a[lane], y = b[lane];
    const u32 a_lo = half_of(x, bit(lo_sel, 0)) ^ (bit(neg_lo, 0) ? 0x8000u : 0), a_hi = half_of(x, bit(hi_sel, 0)) ^ (bit(neg_hi, 0) ? 0x8000u : 0);
    const u32 b_lo = half_of(y, bit(lo_sel, 1)) ^ (bit(neg_lo, 1) ? 0x8000u : 0), b_hi = half_of(y, bit(hi_sel, 1)) ^ (bit(neg_hi, 1) ? 0x8000u : 0);
    const u32 acc = c[lane] ^ (bit(neg_lo, 2) ? 0x80000000u : 0);
    auto value = [&](u32 h) { return Bf16 ? value_of(h, kBf16) : in16(u16(h), e16); };
    Modifiers none;
    u32 nan = 0;
    double r;
    if (first_nan({acc}, kSingle, nan)) r = value_of(nan, kSingle);
    else if (first_nan({a_lo, b_lo, a_hi, b_hi}, f, nan)) r = value_of(nan, f);
    else {
      const double p0 = value(a_lo) * value(b_lo), p1 = value(a_hi) * value(b_hi);
      const double t0 = value_of(finish(add_odd(in32(acc, e32), p0), kSingle, none, e32), kSingle);
      r = add_odd(t0, p1);
      if (std::isnan(r)) r = kInvalidNaN;
    }
    w.vgpr(d.reg, lane) = finish(r, kSingle, none, e32);
  });
  return true;
}

// v_dot2_f16_f16 / v_dot2_bf16_bf16 d, s0, s1, s2 (VOP3), as the ISA's pseudocode reads: each
// product and partial sum of 16-bit values rounded to the 16-bit format (nearest even), a.lo * b.lo
// + a.hi * b.hi, then + c. op_sel[2] picks the half of S2, op_sel[3] the half of D. BF16 flushes
// denormals (ISA 7.2.4); F16 keeps them.
template <bool Bf16>
bool dot2_16(Wave& w, const Step& s, Context&) {
  const Format f = Bf16 ? kBf16 : kHalf;
  const Operand& d = op(s, 0);
  const Type t = Bf16 ? Type::bf16 : Type::f16_both;
  const Src a(w, op(s, 1), t), b(w, op(s, 2), t), c(w, op(s, 3), t);
  const bool c_high = bit(s.mods.op_sel, 2), d_high = bit(s.mods.op_sel, 3);
  FloatEnv e;
  e.flush_in = e.flush_out = Bf16;
  const Modifiers none;
  for_active(w, [&](u32 lane) {
    const u32 x = a[lane], y = b[lane];
    const u32 in[5] = {x & 0xffff, x >> 16, y & 0xffff, y >> 16, half_of(c[lane], c_high)};
    u32 nan = 0, r;
    if (first_nan({in[0], in[1], in[2], in[3], in[4]}, f, nan)) {
      r = nan;
    } else {
      auto v = [&](u32 h) { return value_of(flush_input(h, f, e), f); };
      auto rounded = [&](double exact) { return finish(std::isnan(exact) ? kInvalidNaN : exact, f, none, e); };
      const u32 p0 = rounded(v(in[0]) * v(in[2])), p1 = rounded(v(in[1]) * v(in[3]));  // exact products, rounded
      const u32 sum = rounded(add_odd(value_of(p0, f), value_of(p1, f)));
      r = rounded(add_odd(value_of(sum, f), v(in[4])));
    }
    put16(w, d.reg, lane, d_high, u16(r));
  });
  return true;
}

// v_dot4_i32_iu8 / v_dot8_i32_iu4 (neg_lo[0..1]: source is signed) and v_dot4_u32_u8 /
// v_dot8_u32_u4; CLAMP saturates the 32-bit result.
template <int Bits, bool SignedResult>
bool dot_int(Wave& w, const Step& s, Context&) {
  const Operand& d = op(s, 0);
  const Src a(w, op(s, 1), Type::b32), b(w, op(s, 2), Type::b32), c(w, op(s, 3), Type::b32);
  const bool a_signed = SignedResult && bit(s.mods.neg_lo, 0), b_signed = SignedResult && bit(s.mods.neg_lo, 1);
  constexpr u32 mask = (1u << Bits) - 1;
  for_active(w, [&](u32 lane) {
    const u32 x = a[lane], y = b[lane];
    i64 sum = SignedResult ? i64(i32(c[lane])) : i64(c[lane]);
    for (int i = 0; i < 32 / Bits; ++i) {
      const u32 p = (x >> (Bits * i)) & mask, q = (y >> (Bits * i)) & mask;
      const i64 sp = a_signed ? i64(p) - ((p >> (Bits - 1)) << Bits) : i64(p);
      const i64 sq = b_signed ? i64(q) - ((q >> (Bits - 1)) << Bits) : i64(q);
      sum += sp * sq;
    }
    if (s.mods.clamp) sum = SignedResult ? std::clamp<i64>(sum, INT32_MIN, INT32_MAX) : std::clamp<i64>(sum, 0, 0xffffffffll);
    w.vgpr(d.reg, lane) = u32(sum);
  });
  return true;
}

// ---- WMMA ----------------------------------------------------------------------------------------
// D = A x B + C for 16x16 matrices, EXEC ignored (all lanes). Layout (ISA 7.9): lane m (0..15) holds
// row m of A and column m of B, element k packed along the VGPRs (two f16, four iu8 or eight iu4 per
// VGPR, lowest bits first); lanes 16..63 hold copies and are not read. C and D: element (m, n) in
// VGPR m / (wave/16), lane n + 16 * (m % (wave/16)); 16-bit C/D use the half op_sel[2] picks.
enum class Wmma : std::uint8_t { f32_f16, f32_bf16, f16_f16, bf16_bf16, i32_iu8, i32_iu4 };

template <Wmma Kind>
bool wmma(Wave& w, const Step& s, Context&) {
  constexpr bool float_in = Kind != Wmma::i32_iu8 && Kind != Wmma::i32_iu4;
  constexpr bool bf16_in = Kind == Wmma::f32_bf16 || Kind == Wmma::bf16_bf16;
  constexpr bool out16 = Kind == Wmma::f16_f16 || Kind == Wmma::bf16_bf16;
  constexpr Format out_format = !out16 ? kSingle : bf16_in ? kBf16 : kHalf;
  const Operand& d = op(s, 0);
  const Operand& oa = op(s, 1);
  const Operand& ob = op(s, 2);
  const Operand& oc = op(s, 3);
  const u32 rows_per_vgpr = w.size / 16;
  const bool half_high = bit(s.mods.op_sel, 2);
  const u32 neg_lo = s.mods.neg_lo, neg_hi = s.mods.neg_hi;
  // Element k of row/column `lane` of A (source 0) or B (source 1).
  auto element = [&](const Operand& o, u32 lane, u32 k, u32 source) -> double {
    if constexpr (float_in) {
      u32 h = half_of(w.vgpr(o.reg + k / 2, lane), k & 1);
      if (bit(k & 1 ? neg_hi : neg_lo, source)) h ^= 0x8000;  // NEG on the low halves, NEG_HI on the high
      return value_of(h, bf16_in ? kBf16 : kHalf);
    } else {
      constexpr u32 bits = Kind == Wmma::i32_iu8 ? 8 : 4, per = 32 / bits;
      const u32 raw = (w.vgpr(o.reg + k / per, lane) >> (bits * (k % per))) & ((1u << bits) - 1);
      const bool is_signed = bit(neg_lo, source);  // NEG[1:0]: signed sources
      return is_signed ? double(i32(raw) - i32((raw >> (bits - 1)) << bits)) : double(raw);
    }
  };
  double a[16][16], b[16][16];
  for (u32 m = 0; m < 16; ++m)
    for (u32 k = 0; k < 16; ++k) {
      a[m][k] = element(oa, m, k, 0);
      b[k][m] = element(ob, m, k, 1);
    }
  const Src c(w, oc, bf16_in ? Type::bf16 : out16 ? Type::f16_both : Type::b32);
  std::array<u32, 256> result;
  for (u32 m = 0; m < 16; ++m)
    for (u32 n = 0; n < 16; ++n) {
      const u32 reg_offset = m / rows_per_vgpr, lane = n + 16 * (m % rows_per_vgpr);
      const u32 raw = oc.kind == Operand::Kind::vgpr ? w.vgpr(oc.reg + reg_offset, lane) : c[lane];
      if constexpr (!float_in) {
        i64 sum = i32(raw);
        for (u32 k = 0; k < 16; ++k) sum += i64(a[m][k]) * i64(b[k][n]);
        result[m * 16 + n] = u32(sum);  // the ISA ignores CLAMP for WMMA
      } else {
        u32 cbits = out16 ? half_of(raw, half_high) : raw;
        if (bit(neg_hi, 2)) cbits &= ~sign_bit(out_format);  // {NEG_HI[2], NEG[2]} act as {ABS, NEG} on C
        if (bit(neg_lo, 2)) cbits ^= sign_bit(out_format);
        ExactSum sum;
        sum.add(value_of(cbits, out_format));
        for (u32 k = 0; k < 16; ++k) sum.add(a[m][k] * b[k][n]);
        const FloatEnv e;  // round to nearest even, denormals kept (ISA 7.9)
        const Modifiers none;
        result[m * 16 + n] = finish(sum.round_odd(), out_format, none, e);
      }
    }
  for (u32 m = 0; m < 16; ++m)
    for (u32 n = 0; n < 16; ++n) {
      const u32 reg = d.reg + m / rows_per_vgpr, lane = n + 16 * (m % rows_per_vgpr);
      if (out16) put16(w, reg, lane, half_high, u16(result[m * 16 + n]));
      else w.vgpr(reg, lane) = result[m * 16 + n];
    }
  return true;
}

// ---- the family's table --------------------------------------------------------------------------
// accepts: the modifiers each handler honours (Accepts bits, and kAbsNeg). CLAMP and OMOD are
// honoured where the ISA gives them a meaning for the result type.
struct Entry {
  std::string_view mnemonic;
  Handler handler;
  std::uint32_t accepts = 0;
};
constexpr std::uint32_t kOpSel = Accepts::op_sel, kNeg = Accepts::neg_lo_hi;
// Not an Accepts bit: the handler honours abs/neg written on its source operands (-v1, |v1|).
constexpr std::uint32_t kAbsNeg = 1u << 31;

const Entry kPacked[] = {
    // VOP2 / VOP1 / their VOP3 forms (LLVM 19 prints no op_sel for these on gfx1100)
    {"v_add_f16", f16_op<H::add, 2>, kAbsNeg}, {"v_sub_f16", f16_op<H::sub, 2>, kAbsNeg}, {"v_subrev_f16", f16_op<H::subrev, 2>, kAbsNeg},
    {"v_mul_f16", f16_op<H::mul, 2>, kAbsNeg}, {"v_min_f16", f16_op<H::min, 2>, kAbsNeg}, {"v_max_f16", f16_op<H::max, 2>, kAbsNeg},
    {"v_ldexp_f16", f16_op<H::ldexp, 2>, kAbsNeg}, {"v_fmac_f16", f16_op<H::fmac, 2>, kAbsNeg}, {"v_fmamk_f16", f16_op<H::fmamk, 3>, kAbsNeg},
    {"v_fmaak_f16", f16_op<H::fmaak, 3>, kAbsNeg}, {"v_rcp_f16", f16_op<H::rcp, 1>, kAbsNeg}, {"v_sqrt_f16", f16_op<H::sqrt, 1>, kAbsNeg},
    {"v_rsq_f16", f16_op<H::rsq, 1>, kAbsNeg}, {"v_log_f16", f16_op<H::log, 1>, kAbsNeg}, {"v_exp_f16", f16_op<H::exp, 1>, kAbsNeg},
    {"v_sin_f16", f16_op<H::sin, 1>, kAbsNeg}, {"v_cos_f16", f16_op<H::cos, 1>, kAbsNeg}, {"v_floor_f16", f16_op<H::floor, 1>, kAbsNeg},
    {"v_ceil_f16", f16_op<H::ceil, 1>, kAbsNeg}, {"v_trunc_f16", f16_op<H::trunc, 1>, kAbsNeg}, {"v_rndne_f16", f16_op<H::rndne, 1>, kAbsNeg},
    {"v_fract_f16", f16_op<H::fract, 1>, kAbsNeg}, {"v_frexp_mant_f16", f16_op<H::frexp_mant, 1>, kAbsNeg},
    {"v_cvt_f16_u16", f16_op<H::cvt_f16_u16, 1>, kAbsNeg}, {"v_cvt_f16_i16", f16_op<H::cvt_f16_i16, 1>, kAbsNeg},
    {"v_cvt_u16_f16", convert16<C::u16_f16>, kAbsNeg}, {"v_cvt_i16_f16", convert16<C::i16_f16>, kAbsNeg},
    {"v_cvt_norm_i16_f16", convert16<C::norm_i16_f16>, kAbsNeg}, {"v_cvt_norm_u16_f16", convert16<C::norm_u16_f16>, kAbsNeg},
    {"v_frexp_exp_i16_f16", convert16<C::frexp_exp_i16_f16>, kAbsNeg}, {"v_cvt_f16_f32", convert16<C::f16_f32>, kAbsNeg},
    {"v_cvt_f32_f16", convert16<C::f32_f16>, kAbsNeg}, {"v_cvt_i32_i16", convert16<C::i32_i16>}, {"v_cvt_u32_u16", convert16<C::u32_u16>},
    {"v_not_b16", convert16<C::not_b16>}, {"v_mov_b16", mov16, Accepts::high16 | kAbsNeg}, {"v_sat_pk_u8_i16", convert16<C::sat_pk_u8_i16>},
    {"v_cvt_pk_rtz_f16_f32", wide_op<W::cvt_pk_rtz_f16_f32>, kAbsNeg}, {"v_pk_fmac_f16", packed<P::fmac_f16, 2>},
    {"v_dot2acc_f32_f16", dot2_f32<false, true>},
    // VOP3 (op_sel per ISA table 27)
    {"v_fma_f16", f16_op<H::fma, 3>, kOpSel | kAbsNeg}, {"v_min3_f16", f16_op<H::min3, 3>, kOpSel | kAbsNeg}, {"v_max3_f16", f16_op<H::max3, 3>, kOpSel | kAbsNeg},
    {"v_med3_f16", f16_op<H::med3, 3>, kOpSel | kAbsNeg}, {"v_minmax_f16", f16_op<H::minmax, 3>, kOpSel | kAbsNeg},
    {"v_maxmin_f16", f16_op<H::maxmin, 3>, kOpSel | kAbsNeg}, {"v_div_fixup_f16", f16_op<H::div_fixup, 3>, kOpSel | kAbsNeg},
    {"v_add_nc_u16", int16_op<I16::add_u, 2>, kOpSel}, {"v_add_nc_i16", int16_op<I16::add_i, 2>, kOpSel},
    {"v_sub_nc_u16", int16_op<I16::sub_u, 2>, kOpSel}, {"v_sub_nc_i16", int16_op<I16::sub_i, 2>, kOpSel},
    {"v_mul_lo_u16", int16_op<I16::mul_lo_u, 2>, kOpSel}, {"v_min_u16", int16_op<I16::min_u, 2>, kOpSel},
    {"v_max_u16", int16_op<I16::max_u, 2>, kOpSel}, {"v_min_i16", int16_op<I16::min_i, 2>, kOpSel},
    {"v_max_i16", int16_op<I16::max_i, 2>, kOpSel}, {"v_lshlrev_b16", int16_op<I16::lshlrev, 2>, kOpSel},
    {"v_lshrrev_b16", int16_op<I16::lshrrev, 2>, kOpSel}, {"v_ashrrev_i16", int16_op<I16::ashrrev, 2>, kOpSel},
    {"v_and_b16", int16_op<I16::and_, 2>, kOpSel}, {"v_or_b16", int16_op<I16::or_, 2>, kOpSel}, {"v_xor_b16", int16_op<I16::xor_, 2>, kOpSel},
    {"v_mad_u16", int16_op<I16::mad_u, 3>, kOpSel}, {"v_mad_i16", int16_op<I16::mad_i, 3>, kOpSel},
    {"v_min3_u16", int16_op<I16::min3_u, 3>, kOpSel}, {"v_max3_u16", int16_op<I16::max3_u, 3>, kOpSel},
    {"v_med3_u16", int16_op<I16::med3_u, 3>, kOpSel}, {"v_min3_i16", int16_op<I16::min3_i, 3>, kOpSel},
    {"v_max3_i16", int16_op<I16::max3_i, 3>, kOpSel}, {"v_med3_i16", int16_op<I16::med3_i, 3>, kOpSel},
    {"v_cndmask_b16", cndmask16, kOpSel | kAbsNeg}, {"v_mad_u32_u16", wide_op<W::mad_u32_u16>, kOpSel},
    {"v_mad_i32_i16", wide_op<W::mad_i32_i16>, kOpSel}, {"v_pack_b32_f16", wide_op<W::pack_b32_f16>, kOpSel | kAbsNeg},
    {"v_cvt_pk_norm_i16_f16", wide_op<W::cvt_pk_norm_i16_f16>, kOpSel | kAbsNeg}, {"v_cvt_pk_norm_u16_f16", wide_op<W::cvt_pk_norm_u16_f16>, kOpSel | kAbsNeg},
    {"v_cvt_pk_norm_i16_f32", wide_op<W::cvt_pk_norm_i16_f32>, kAbsNeg}, {"v_cvt_pk_norm_u16_f32", wide_op<W::cvt_pk_norm_u16_f32>, kAbsNeg},
    {"v_cvt_pk_i16_f32", wide_op<W::cvt_pk_i16_f32>, kAbsNeg}, {"v_cvt_pk_u16_f32", wide_op<W::cvt_pk_u16_f32>, kAbsNeg},
    {"v_cvt_pk_u16_u32", wide_op<W::cvt_pk_u16_u32>}, {"v_cvt_pk_i16_i32", wide_op<W::cvt_pk_i16_i32>},
    {"v_cvt_pk_u8_f32", wide_op<W::cvt_pk_u8_f32>, kAbsNeg}, {"v_sad_u16", wide_op<W::sad_u16>}, {"v_sad_u8", wide_op<W::sad_u8>},
    {"v_sad_hi_u8", wide_op<W::sad_hi_u8>}, {"v_msad_u8", wide_op<W::msad_u8>}, {"v_lerp_u8", wide_op<W::lerp_u8>},
    {"v_qsad_pk_u16_u8", quad_sad<false, false>}, {"v_mqsad_pk_u16_u8", quad_sad<true, false>}, {"v_mqsad_u32_u8", quad_sad<true, true>},
    {"v_dot2_f16_f16", dot2_16<false>, kOpSel}, {"v_dot2_bf16_bf16", dot2_16<true>, kOpSel},
    // VOP3P
    {"v_pk_mad_i16", packed<P::mad_i16, 3>, kOpSel}, {"v_pk_mul_lo_u16", packed<P::mul_lo_u16, 2>, kOpSel},
    {"v_pk_add_i16", packed<P::add_i16, 2>, kOpSel}, {"v_pk_sub_i16", packed<P::sub_i16, 2>, kOpSel},
    {"v_pk_lshlrev_b16", packed<P::lshlrev_b16, 2>, kOpSel}, {"v_pk_lshrrev_b16", packed<P::lshrrev_b16, 2>, kOpSel},
    {"v_pk_ashrrev_i16", packed<P::ashrrev_i16, 2>, kOpSel}, {"v_pk_max_i16", packed<P::max_i16, 2>, kOpSel},
    {"v_pk_min_i16", packed<P::min_i16, 2>, kOpSel}, {"v_pk_mad_u16", packed<P::mad_u16, 3>, kOpSel},
    {"v_pk_add_u16", packed<P::add_u16, 2>, kOpSel}, {"v_pk_sub_u16", packed<P::sub_u16, 2>, kOpSel},
    {"v_pk_max_u16", packed<P::max_u16, 2>, kOpSel}, {"v_pk_min_u16", packed<P::min_u16, 2>, kOpSel},
    {"v_pk_fma_f16", packed<P::fma_f16, 3>, kOpSel | kNeg}, {"v_pk_add_f16", packed<P::add_f16, 2>, kOpSel | kNeg},
    {"v_pk_mul_f16", packed<P::mul_f16, 2>, kOpSel | kNeg}, {"v_pk_min_f16", packed<P::min_f16, 2>, kOpSel | kNeg},
    {"v_pk_max_f16", packed<P::max_f16, 2>, kOpSel | kNeg},
    {"v_fma_mix_f32", fma_mix<0>, kOpSel | kAbsNeg}, {"v_fma_mixlo_f16", fma_mix<1>, kOpSel | kAbsNeg}, {"v_fma_mixhi_f16", fma_mix<2>, kOpSel | kAbsNeg},
    {"v_dot2_f32_f16", dot2_f32<false, false>, kOpSel | kNeg}, {"v_dot2_f32_bf16", dot2_f32<true, false>, kOpSel | kNeg},
    {"v_dot4_i32_iu8", dot_int<8, true>, kNeg}, {"v_dot8_i32_iu4", dot_int<4, true>, kNeg},
    {"v_dot4_u32_u8", dot_int<8, false>}, {"v_dot8_u32_u4", dot_int<4, false>},
    {"v_wmma_f32_16x16x16_f16", wmma<Wmma::f32_f16>, kNeg}, {"v_wmma_f32_16x16x16_bf16", wmma<Wmma::f32_bf16>, kNeg},
    {"v_wmma_f16_16x16x16_f16", wmma<Wmma::f16_f16>, kOpSel | kNeg}, {"v_wmma_bf16_16x16x16_bf16", wmma<Wmma::bf16_bf16>, kOpSel | kNeg},
    {"v_wmma_i32_16x16x16_iu8", wmma<Wmma::i32_iu8>, kNeg}, {"v_wmma_i32_16x16x16_iu4", wmma<Wmma::i32_iu4>, kNeg},
};

// Modifier combinations the ISA leaves undefined for an instruction, or that this file does not
// model: refused (the instruction is reported as not implemented) rather than guessed.
bool defined_modifiers(std::string_view m, const ParsedInstruction& p, const Entry& e) {
  const Modifiers& mods = p.modifiers;
  const bool source_modifiers = std::any_of(p.operands.begin() + std::min<std::size_t>(1, p.operands.size()), p.operands.end(),
                                            [](const Operand& o) { return o.abs || o.neg; });
  if (source_modifiers && !(e.accepts & kAbsNeg)) return false;
  if (m.starts_with("v_dot4_") || m.starts_with("v_dot8_") || m == "v_wmma_i32_16x16x16_iu8" || m == "v_wmma_i32_16x16x16_iu4")
    return mods.neg_hi == 0 && (mods.neg_lo & 4) == 0;  // NEG[1:0] are signedness; the rest undefined
  if (m == "v_dot2_f32_f16" || m == "v_dot2_f32_bf16") return (mods.neg_hi & 4) == 0 && !source_modifiers;
  if (m == "v_dot2_f16_f16" || m == "v_dot2_bf16_bf16") return !source_modifiers && !mods.clamp;
  if (m.starts_with("v_wmma_")) return !source_modifiers && (m.starts_with("v_wmma_f16") || m.starts_with("v_wmma_bf16") || mods.op_sel == 0);
  if (m.starts_with("v_pk_")) return !source_modifiers;  // VOP3P has no ABS; LLVM prints NEG as neg_lo/neg_hi
  return true;
}

}  // namespace

Handler resolve_packed(const ParsedInstruction& p, Step& step) {
  std::string_view m = p.mnemonic;
  std::string undual;
  if (m.starts_with("v_dual_")) {  // a VOPD half is its VOP2 twin
    undual = "v_" + std::string(m.substr(7));
    m = undual;
  }
  for (const auto& e : kPacked)
    if (e.mnemonic == m) {
      if (!defined_modifiers(m, p, e)) return nullptr;
      step.accepts |= e.accepts & ~kAbsNeg;
      return e.handler;
    }
  return nullptr;
}

}  // namespace gpuport::emu
