// Float SASS semantics; see sass_float.h. Directed rounding (.RZ/.RM/.RP) needs no rounding-mode
// control from the target: f32 operations use the round-to-nearest result and the exact error of
// the operation (error-free transformations); f64 operations and the conversions compute the exact
// result in integers and round it once in software (round_exact).
#include "lift/semantics/sass_float.h"

namespace {

inline sass_u32 bits(float x) { return __builtin_bit_cast(sass_u32, x); }
inline float from_bits(sass_u32 b) { return __builtin_bit_cast(float, b); }
inline sass_u64 bits64(double x) { return __builtin_bit_cast(sass_u64, x); }
inline double from_bits64(sass_u64 b) { return __builtin_bit_cast(double, b); }

// A compare, not a bit test: a compare reads no payload, so the NaN marks before it can go.
inline bool is_nan(float x) { return __builtin_isnan(x); }
inline bool is_inf(float x) { return (bits(x) & 0x7fffffffu) == 0x7f800000u; }

// A compare code (lift_context.h: float_compare_code) is a set of outcomes: bit 0 less, 1 equal,
// 2 greater, 3 unordered (LT 1, EQ 2, LE 3, GT 4, NE 5, GE 6, NUM 7, NAN 8, LTU 9 ... GEU 14, T 15).
// Exactly one outcome holds for any pair, so the compare holds when its set contains it.
inline bool compare_holds(sass_u32 cmp, bool lt, bool eq, bool gt, bool unordered) {
  const sass_u32 outcome = lt ? 1u : eq ? 2u : gt ? 4u : unordered ? 8u : 0u;
  return (cmp & outcome) != 0;
}

// Denormals to zero of the same sign. By compare, not by bits, so that the NaN marks before it
// can go (NaN is not below the smallest normal).
inline float flush(float x) { return __builtin_fabsf(x) < 0x1p-126f ? __builtin_copysignf(0.0f, x) : x; }

// The next float after x toward +inf (up) or -inf; x finite or infinite, not NaN.
float step(float x, bool up) {
  const sass_u32 b = bits(x);
  if ((b & 0x7fffffffu) == 0) return up ? from_bits(1) : from_bits(0x80000001u);
  const bool negative = (b >> 31) != 0;
  if ((b & 0x7fffffffu) == 0x7f800000u) {  // infinity: toward the finite side only
    if (up == negative) return from_bits(b - 1);
    return x;
  }
  return from_bits(up != negative ? b + 1 : b - 1);
}

// `rounded` is the round-to-nearest result of an operation whose exact value is rounded + error
// (sign_of_error: -1, 0, 1); gives the result under `rounding` (1 RM, 2 RP, 3 RZ).
float directed(float rounded, int sign_of_error, sass_u32 rounding) {
  if (rounding == 0 || sign_of_error == 0 || is_nan(rounded)) return rounded;
  const bool positive = (bits(rounded) >> 31) == 0;
  bool down;
  if (rounding == 1) down = true;
  else if (rounding == 2) down = false;
  else down = positive;  // RZ: toward zero
  if (down && sign_of_error < 0) return step(rounded, false);
  if (!down && sign_of_error > 0) return step(rounded, true);
  return rounded;
}

// A round-to-nearest result that overflowed to infinity from finite inputs, under a directed mode.
float overflowed(float infinity, sass_u32 rounding) {
  const bool positive = (bits(infinity) >> 31) == 0;
  if (rounding == 3 || (rounding == 1 && positive) || (rounding == 2 && !positive))
    return from_bits(bits(infinity) - 1);  // the largest finite of that sign
  return infinity;
}

// The float nearest to exact value `x` (a double holding it exactly) under `rounding`.
float round_double(double x, sass_u32 rounding) {
  const float f = static_cast<float>(x);
  if (rounding == 0 || is_nan(f)) return f;
  if (is_inf(f)) return overflowed(f, rounding);
  const double back = static_cast<double>(f);
  return directed(f, x > back ? 1 : x < back ? -1 : 0, rounding);
}

constexpr sass_u32 kCanonicalNan = 0x7fffffffu;  // what NVIDIA's FP32 units write for any NaN result

// The result of FADD/FMUL/FFMA: .SAT clamps (NaN to +0), .FTZ flushes, and a NaN is the
// canonical one (kCanonicalNan, through the mark: sass.h).
float finish(float r, bool ftz, bool sat) {
  if (sat && is_nan(r)) return 0.0f;
  if (ftz) r = flush(r);
  if (sat) {
    if (r < 0.0f) return 0.0f;  // -0 stays -0: not below 0
    if (r > 1.0f) return 1.0f;
  }
  return gpuport_mark_nan_f32(r);
}

}  // namespace

SASS_SEMANTIC(float, fadd)(float a, float b, sass_u32 rounding, bool ftz, bool sat) {
  if (ftz) a = flush(a), b = flush(b);
  // TwoSum: the exact error of the rounded sum, for any finite a and b without overflow.
  float s = a + b;
  if (rounding != 0 && !is_nan(s)) {
    if (is_inf(s) && !is_inf(a) && !is_inf(b)) {
      s = overflowed(s, rounding);
    } else if (!is_inf(s)) {
      const float bv = s - a;
      const float av = s - bv;
      const float error = (a - av) + (b - bv);
      s = directed(s, error > 0.0f ? 1 : error < 0.0f ? -1 : 0, rounding);
      // An exact zero sum of opposite operands is -0 when rounding down (IEEE 754 6.3).
      if (s == 0.0f && error == 0.0f && rounding == 1 && (bits(a) >> 31) != (bits(b) >> 31)) s = from_bits(0x80000000u);
    }
  }
  return finish(s, ftz, sat);
}

SASS_SEMANTIC(float, fmul)(float a, float b, sass_u32 rounding, bool ftz, bool sat) {
  if (ftz) a = flush(a), b = flush(b);
  float p;
  if (rounding == 0 || is_inf(a) || is_inf(b) || is_nan(a) || is_nan(b)) p = a * b;  // exact or special
  else p = round_double(static_cast<double>(a) * static_cast<double>(b), rounding);  // exact in a double
  return finish(p, ftz, sat);
}

SASS_SEMANTIC(float, ffma)(float a, float b, float c, sass_u32 rounding, bool ftz, bool sat) {
  if (ftz) a = flush(a), b = flush(b), c = flush(c);
  float r = __builtin_fmaf(a, b, c);
  if (rounding != 0 && !is_nan(r)) {
    if (is_inf(r)) {
      if (!is_inf(a) && !is_inf(b) && !is_inf(c)) r = overflowed(r, rounding);
    } else {
      // a*b is exact in a double; p + c as a double plus its exact error (TwoSum) is the exact
      // value; its sign against r decides the step.
      const double p = static_cast<double>(a) * static_cast<double>(b);
      const double dc = static_cast<double>(c);
      const double s = p + dc;
      const double pv = s - dc;
      const double cv = s - pv;
      const double e = (p - pv) + (dc - cv);
      const double diff = (s - static_cast<double>(r)) + e;  // exact value - r
      r = directed(r, diff > 0 ? 1 : diff < 0 ? -1 : 0, rounding);
      if (r == 0.0f && s == 0.0 && e == 0.0 && rounding == 1 && (bits(c) >> 31) != ((bits(a) ^ bits(b)) >> 31))
        r = from_bits(0x80000000u);
    }
  }
  return finish(r, ftz, sat);
}

SASS_SEMANTIC(bool, fcmp)(float a, float b, sass_u32 cmp, bool ftz) {
  if (ftz) a = flush(a), b = flush(b);
  return compare_holds(cmp, a < b, a == b, a > b, is_nan(a) || is_nan(b));
}

// Written without branches and without reading an operand's bits (so that the NaN marks of the
// operands can go, sass.h): minNum/maxNum give the other operand for one NaN and a NaN for two
// (made the canonical one by the mark); equal operands differ at most in the sign of zero, where
// min gives -0 and max +0 (when either operand is).
SASS_SEMANTIC(float, fmnmx)(float a, float b, bool min, bool ftz) {
  if (ftz) a = flush(a), b = flush(b);
  float r = min ? __builtin_fminf(a, b) : __builtin_fmaxf(a, b);
  // Zeros by arithmetic, not by sign bits (which LLVM would read for a copysign test): a + b is
  // -0 only for two -0s (max), -(-a - b) is -0 unless both are +0 (min).
  if (a == b && a == 0.0f) r = min ? -(-a - b) : a + b;
  return gpuport_mark_nan_f32(r);
}

namespace {

// ---- exact rounding to a binary format ------------------------------------------------------------
// The conversions and the directed-rounding f64 operations compute their exact result as
// sign * significand * 2^exponent (+ a sticky bit for nonzero bits below the significand) and
// round it here once, with denormals and overflow as IEEE 754 rounds them.

typedef unsigned __int128 sass_u128;

struct Format {
  int precision;  // significand bits including the leading one
  int exponent_bits;
  int emin, emax;  // of the leading bit, normal numbers
  sass_u64 canonical_nan;
};
constexpr Format kFormats[4] = {
    {24, 8, -126, 127, 0x7fffffffull},                 // F32
    {53, 11, -1022, 1023, 0x7ff8000000000000ull},      // F64 (NaNs keep their payload; see the header)
    {11, 5, -14, 15, 0x7fffull},                       // F16
    {8, 8, -126, 127, 0x7fffull},                      // BF16
};

inline int width(const Format& f) { return f.precision + f.exponent_bits; }
inline sass_u64 sign_bit(const Format& f) { return 1ull << (width(f) - 1); }
inline sass_u64 infinity_bits(const Format& f) { return ((1ull << f.exponent_bits) - 1) << (f.precision - 1); }

int highest_bit(sass_u128 x) {  // x != 0
  const sass_u64 hi = static_cast<sass_u64>(x >> 64);
  if (hi != 0) return 127 - __builtin_clzll(hi);
  return 63 - __builtin_clzll(static_cast<sass_u64>(x));
}

// Overflow under `rounding`: infinity, or the largest finite when the mode rounds toward zero
// for that sign.
sass_u64 overflow_bits(const Format& f, bool negative, sass_u32 rounding) {
  const bool to_max = rounding == 3 || (rounding == 1 && !negative) || (rounding == 2 && negative);
  return (negative ? sign_bit(f) : 0) | (to_max ? infinity_bits(f) - 1 : infinity_bits(f));
}

// The bits of (-1)^negative * significand * 2^exponent (+ sticky: a nonzero tail below it)
// rounded to `f`. A zero value gives a zero of that sign.
sass_u64 round_exact(const Format& f, bool negative, sass_u128 significand, int exponent, bool sticky, sass_u32 rounding) {
  const sass_u64 sign = negative ? sign_bit(f) : 0;
  if (significand == 0 && !sticky) return sign;
  if (significand == 0) {  // only a tail below every representable bit: 0 or the smallest denormal
    const bool up = (rounding == 1 && negative) || (rounding == 2 && !negative);
    return sign | (up ? 1 : 0);
  }
  const int leading = exponent + highest_bit(significand);
  if (leading > f.emax + 1) return overflow_bits(f, negative, rounding);
  // The exponent of the last kept bit: the format's ulp at this magnitude, never below the
  // denormal ulp.
  int lsb = leading - (f.precision - 1);
  if (lsb < f.emin - (f.precision - 1)) lsb = f.emin - (f.precision - 1);
  const int shift = lsb - exponent;
  sass_u128 kept;
  bool round_bit = false;
  if (shift <= 0) {
    kept = significand << -shift;
  } else if (shift >= 128) {
    kept = 0;
    sticky = sticky || significand != 0;
  } else {
    kept = significand >> shift;
    round_bit = ((significand >> (shift - 1)) & 1) != 0;
    if (shift >= 2 && (significand & ((static_cast<sass_u128>(1) << (shift - 1)) - 1)) != 0) sticky = true;
  }
  bool up = false;
  switch (rounding) {
    case 0: up = round_bit && (sticky || (kept & 1) != 0); break;
    case 1: up = negative && (round_bit || sticky); break;
    case 2: up = !negative && (round_bit || sticky); break;
    default: break;
  }
  if (up) ++kept;
  const sass_u128 one = 1;
  if (kept >> f.precision) {  // rounding carried into a new leading bit
    kept >>= 1;
    ++lsb;
  }
  if (kept >> (f.precision - 1)) {  // normal
    const int e = lsb + f.precision - 1;
    if (e > f.emax) return overflow_bits(f, negative, rounding);
    const sass_u64 biased = static_cast<sass_u64>(e - f.emin + 1);
    return sign | (biased << (f.precision - 1)) | static_cast<sass_u64>(kept & ((one << (f.precision - 1)) - 1));
  }
  return sign | static_cast<sass_u64>(kept);  // denormal (or zero)
}

// A finite float's parts: value = (-1)^negative * significand * 2^exponent.
struct Parts {
  bool negative;
  bool nan, infinite;
  sass_u64 significand;
  int exponent;
};

Parts decode(const Format& f, sass_u64 x) {
  Parts p{};
  p.negative = (x & sign_bit(f)) != 0;
  const sass_u64 fraction = x & ((1ull << (f.precision - 1)) - 1);
  const int biased = static_cast<int>((x >> (f.precision - 1)) & ((1ull << f.exponent_bits) - 1));
  if (biased == (1 << f.exponent_bits) - 1) {
    p.nan = fraction != 0;
    p.infinite = fraction == 0;
    return p;
  }
  if (biased == 0) {
    p.significand = fraction;
    p.exponent = f.emin - (f.precision - 1);
  } else {
    p.significand = fraction | (1ull << (f.precision - 1));
    p.exponent = biased + f.emin - 1 - (f.precision - 1);
  }
  return p;
}

inline bool is_denormal_bits(const Format& f, sass_u64 x) {
  const sass_u64 magnitude = x & (sign_bit(f) - 1);
  return magnitude != 0 && magnitude < (1ull << (f.precision - 1));
}

inline sass_u64 flush_bits(const Format& f, sass_u64 x) { return is_denormal_bits(f, x) ? (x & sign_bit(f)) : x; }

inline bool is_nan64(double x) { return (bits64(x) & 0x7fffffffffffffffull) > 0x7ff0000000000000ull; }
inline bool is_inf64(double x) { return (bits64(x) & 0x7fffffffffffffffull) == 0x7ff0000000000000ull; }

// The quiet form of a NaN operand (f64 results keep the payload; see the header).
inline double quiet64(double x) { return from_bits64(bits64(x) | 0x0008000000000000ull); }

// The exact a*b + c of finite doubles, rounded once under `rounding` (c may be 0 for a product).
double exact_fma(double a, double b, double c, sass_u32 rounding) {
  const Format& f = kFormats[1];
  const Parts pa = decode(f, bits64(a)), pb = decode(f, bits64(b)), pc = decode(f, bits64(c));
  const bool product_negative = pa.negative != pb.negative;
  sass_u128 product = static_cast<sass_u128>(pa.significand) * pb.significand;  // < 2^106
  int pe = pa.exponent + pb.exponent;
  sass_u128 addend = pc.significand;
  int ce = pc.exponent;
  if (product == 0 && addend == 0) {
    // Exact zeros: IEEE 754 6.3 signs (x + x keeps the sign; opposite signs give +0, -0 when
    // rounding down).
    bool negative;
    if (product_negative == pc.negative) negative = pc.negative;
    else negative = rounding == 1;
    return from_bits64(negative ? 0x8000000000000000ull : 0);
  }
  if (product == 0) return c;
  if (addend == 0) return from_bits64(round_exact(f, product_negative, product, pe, false, rounding));
  // Align both at the smaller exponent inside 126 bits; what falls further below becomes a
  // sticky bit of the larger operand's side, which cannot cancel it (it is at least two
  // binades away).
  // Normalise both to have their leading bit at position 115 (room for the sum's carry).
  auto normalise = [](sass_u128& s, int& e) {
    const int shift = 115 - highest_bit(s);
    s <<= shift;
    e -= shift;
  };
  normalise(product, pe);
  normalise(addend, ce);
  bool sticky = false;
  bool product_is_big = pe >= ce;
  sass_u128& small = product_is_big ? addend : product;
  int& small_e = product_is_big ? ce : pe;
  const int big_e = product_is_big ? pe : ce;
  const int distance = big_e - small_e;
  if (distance > 0) {
    if (distance >= 120) {
      sticky = small != 0;
      small = 0;
    } else {
      sticky = (small & ((static_cast<sass_u128>(1) << distance) - 1)) != 0;
      small >>= distance;
    }
    small_e = big_e;
  }
  const bool small_negative = product_is_big ? pc.negative : product_negative;
  const bool big_negative = product_is_big ? product_negative : pc.negative;
  const sass_u128 big = product_is_big ? product : addend;
  if (small_negative == big_negative) {
    // A sticky tail only adds: the value lies strictly above big + small.
    return from_bits64(round_exact(f, big_negative, big + small, big_e, sticky, rounding));
  }
  // Opposite signs: big - small - tail. A tail makes the exact value slightly less than
  // big - small: subtract one unit at a lower position and keep the tail as sticky.
  sass_u128 difference;
  bool negative;
  if (big > small || (big == small && sticky)) {
    difference = big - small;
    negative = big_negative;
  } else {
    difference = small - big;
    negative = small_negative;
  }
  if (difference == 0) {
    return from_bits64(rounding == 1 ? 0x8000000000000000ull : 0);
  }
  if (sticky) {
    // value = difference - tail with 0 < tail < 1 unit: (difference * 2 - 1) / 2 with sticky.
    difference = (difference << 1) - 1;
    return from_bits64(round_exact(f, negative, difference, big_e - 1, true, rounding));
  }
  return from_bits64(round_exact(f, negative, difference, big_e, false, rounding));
}

// Integer rounding of a double: 0 to nearest even, 1 floor, 2 ceil, 3 trunc.
double round_integral(double x, sass_u32 mode) {
  switch (mode) {
    case 1: return __builtin_floor(x);
    case 2: return __builtin_ceil(x);
    case 3: return __builtin_trunc(x);
    default: return __builtin_rint(x);
  }
}

}  // namespace

SASS_SEMANTIC(sass_u32, mufu)(sass_u32 a, sass_u32 op) {
  if (op == 6 || op == 7) {
    const double d = from_bits64(static_cast<sass_u64>(a) << 32);
    const double r = op == 6 ? 1.0 / d : 1.0 / __builtin_sqrt(d);
    return static_cast<sass_u32>(bits64(r) >> 32);
  }
  // TANH keeps denormals: nvcc emits tanh.approx.f32 (which PTX defines on subnormals) as a bare
  // MUFU.TANH, where it wraps the others in scaling code for denormal operands.
  const bool keeps_denormals = op == 9;
  const float x = keeps_denormals ? from_bits(a) : flush(from_bits(a));
  float r;
  switch (op) {
    case 0: r = gpuport_hook_cos_approx(x); break;
    case 1: r = gpuport_hook_sin_approx(x); break;
    case 2: r = gpuport_hook_exp2_approx(x); break;
    case 3: r = gpuport_hook_log2_approx(x); break;
    case 4: r = gpuport_hook_rcp_approx(x); break;
    case 5: r = gpuport_hook_rsqrt_approx(x); break;
    case 8: r = gpuport_hook_sqrt_approx(x); break;
    default: r = gpuport_hook_tanh_approx(x); break;
  }
  return bits(gpuport_mark_nan_f32(keeps_denormals ? r : flush(r)));
}

SASS_SEMANTIC(float, fmnmx_nan)(float a, float b, bool min, bool ftz) {
  if (is_nan(a) || is_nan(b)) return from_bits(kCanonicalNan);
  return gpuport_sass_fmnmx(a, b, min, ftz);
}

SASS_SEMANTIC(bool, fchk)(float a, float b) {
  const int ea = static_cast<int>((bits(a) >> 23) & 0xff);
  const int eb = static_cast<int>((bits(b) >> 23) & 0xff);
  if (eb < 3 || eb > 252) return true;   // zero, denormal, |b| < 2^-124 or >= 2^126, Inf, NaN
  if (ea < 25 || ea == 0xff) return true;  // zero, denormal, |a| < 2^-102, Inf, NaN
  const int eq = ea - eb;
  return eq < -124 || eq > 125;
}

SASS_SEMANTIC(float, frnd)(float a, sass_u32 mode, bool ftz) {
  if (is_nan(a)) return from_bits(kCanonicalNan);
  if (ftz) a = flush(a);
  float r;
  switch (mode) {
    case 1: r = __builtin_floorf(a); break;
    case 2: r = __builtin_ceilf(a); break;
    case 3: r = __builtin_truncf(a); break;
    default: r = __builtin_rintf(a); break;
  }
  return r;
}

SASS_SEMANTIC(double, frnd64)(double a, sass_u32 mode) {
  if (is_nan64(a)) return quiet64(a);
  return round_integral(a, mode);
}

SASS_SEMANTIC(sass_u64, f2i)(sass_u64 source, sass_u32 format, sass_u32 kind, sass_u32 mode, bool ftz) {
  const Format& f = kFormats[format & 3];
  if (ftz && format != 1) source = flush_bits(f, source);
  // Every f32/f16/bf16 value is exact as a double: f32 and f64 by the native conversion.
  double x;
  if (format <= 1) {
    x = format == 1 ? from_bits64(source) : static_cast<double>(from_bits(static_cast<sass_u32>(source)));
    if (x != x) return 0;  // NaN
  } else {
    const Parts p = decode(f, source);
    if (p.nan) return 0;
    if (p.infinite) x = p.negative ? -__builtin_inf() : __builtin_inf();
    else x = (p.negative ? -1.0 : 1.0) * __builtin_ldexp(static_cast<double>(p.significand), p.exponent);
  }
  const double r = round_integral(x, mode);
  struct Range { double low, high; sass_u64 low_bits, high_bits; };
  static constexpr Range ranges[8] = {
      {-2147483648.0, 2147483647.0, 0xffffffff80000000ull, 0x7fffffffull},
      {0.0, 4294967295.0, 0, 0xffffffffull},
      {-9223372036854775808.0, 9223372036854775807.0, 0x8000000000000000ull, 0x7fffffffffffffffull},
      {0.0, 18446744073709551615.0, 0, 0xffffffffffffffffull},
      {-32768.0, 32767.0, 0xffffffffffff8000ull, 0x7fffull},
      {0.0, 65535.0, 0, 0xffffull},
      {-128.0, 127.0, 0xffffffffffffff80ull, 0x7full},
      {0.0, 255.0, 0, 0xffull},
  };
  const Range& range = ranges[kind & 7];
  if (r <= range.low) return range.low_bits;
  // The 64-bit limits are not doubles (2^63 - 1 rounds up to 2^63): compare with >=.
  if (r >= range.high) return range.high_bits;
  // In range: a 32-bit conversion where the kind fits one (the target has those natively).
  if (kind == 1 || kind == 5 || kind == 7) return static_cast<sass_u32>(r);
  if (kind == 0 || kind == 4 || kind == 6) return static_cast<sass_u64>(static_cast<sass_i64>(static_cast<sass_i32>(r)));
  if (kind == 3) return static_cast<sass_u64>(r);
  return static_cast<sass_u64>(static_cast<sass_i64>(r));
}

SASS_SEMANTIC(sass_u64, i2f)(sass_u64 source, sass_u32 kind, sass_u32 format, sass_u32 rounding) {
  bool negative = false;
  sass_u64 magnitude;
  switch (kind & 7) {
    case 0: {
      const sass_i64 v = static_cast<sass_i32>(static_cast<sass_u32>(source));
      negative = v < 0;
      magnitude = static_cast<sass_u64>(negative ? -v : v);
      break;
    }
    case 1: magnitude = source & 0xffffffffull; break;
    case 2: {
      negative = (source >> 63) != 0;
      magnitude = negative ? 0 - source : source;  // 2^63 for the most negative: fine unsigned
      break;
    }
    case 3: magnitude = source; break;
    case 4: {
      const sass_i64 v = static_cast<short>(static_cast<sass_u16>(source));
      negative = v < 0;
      magnitude = static_cast<sass_u64>(negative ? -v : v);
      break;
    }
    case 5: magnitude = source & 0xffffull; break;
    case 6: {
      const sass_i64 v = static_cast<signed char>(static_cast<sass_u8>(source));
      negative = v < 0;
      magnitude = static_cast<sass_u64>(negative ? -v : v);
      break;
    }
    default: magnitude = source & 0xffull; break;
  }
  // An integer zero converts to +0.
  if (magnitude == 0) return 0;
  if (rounding == 0 && format <= 1) {
    // To nearest, the native conversion is the same (IEEE) and far cheaper on the target.
    if (format == 1) {
      const double d = static_cast<double>(magnitude);
      return bits64(negative ? -d : d);
    }
    const float f = static_cast<float>(magnitude);
    return bits(negative ? -f : f);
  }
  if (format == 0 && (kind & 7) != 2 && (kind & 7) != 3) {
    // Up to 32 bits to f32 under a directed rounding (nvcc's integer division starts with
    // I2F.U32.RP): the nearest float, then one step where it lies on the wrong side. The
    // magnitude and that float are both exact as doubles, so the comparison is exact.
    const float nearest = static_cast<float>(magnitude);
    const double exact = static_cast<double>(magnitude), got = static_cast<double>(nearest);
    const bool away = (rounding == 2 && !negative) || (rounding == 1 && negative);  // RP up, RM down: a larger magnitude
    float r = nearest;
    if (away ? got < exact : got > exact) r = from_bits(away ? bits(nearest) + 1 : bits(nearest) - 1);
    return bits(negative ? -r : r);
  }
  return round_exact(kFormats[format & 3], negative, magnitude, 0, false, rounding);
}

SASS_SEMANTIC(sass_u64, f2f)(sass_u64 source, sass_u32 from_format, sass_u32 to_format, sass_u32 rounding, bool ftz) {
  const Format& from = kFormats[from_format & 3];
  const Format& to = kFormats[to_format & 3];
  if (ftz && from_format == 0) source = flush_bits(from, source);
  const Parts p = decode(from, source);
  const sass_u64 sign = p.negative ? sign_bit(to) : 0;
  if (p.nan) {
    if (to_format == 1) {
      // The native conversion keeps the payload's leading bits and quiets it.
      const sass_u64 fraction = source & ((1ull << (from.precision - 1)) - 1);
      return sign | infinity_bits(to) | 0x0008000000000000ull | (fraction << (53 - from.precision));
    }
    return to.canonical_nan;
  }
  if (p.infinite) return sign | infinity_bits(to);
  sass_u64 r;
  if (rounding == 0 && from_format == 1 && to_format == 0) r = bits(static_cast<float>(from_bits64(source)));  // native = IEEE RN
  else if (from_format == 0 && to_format == 1) r = bits64(static_cast<double>(from_bits(static_cast<sass_u32>(source))));  // exact
  else r = round_exact(to, p.negative, p.significand, p.exponent, false, rounding);
  if (ftz && to_format == 0) r = flush_bits(to, r);
  return r;
}

SASS_SEMANTIC(sass_u32, f2fp_pack)(float a, float b, sass_u32 format, sass_u32 rounding) {
  const sass_u64 hi = gpuport_sass_f2f(bits(a), 0, format, rounding, false);
  const sass_u64 lo = gpuport_sass_f2f(bits(b), 0, format, rounding, false);
  return static_cast<sass_u32>((hi << 16) | (lo & 0xffffu));
}

SASS_SEMANTIC(double, dadd)(double a, double b, sass_u32 rounding) {
  if (rounding == 0 || is_nan64(a) || is_nan64(b) || is_inf64(a) || is_inf64(b)) return a + b;
  return exact_fma(a, 1.0, b, rounding);
}

SASS_SEMANTIC(double, dmul)(double a, double b, sass_u32 rounding) {
  if (rounding == 0 || is_nan64(a) || is_nan64(b) || is_inf64(a) || is_inf64(b)) return a * b;
  // Exact zero products keep the sign of a * b under every mode.
  const Parts pa = decode(kFormats[1], bits64(a)), pb = decode(kFormats[1], bits64(b));
  if (pa.significand == 0 || pb.significand == 0) return a * b;
  return from_bits64(round_exact(kFormats[1], pa.negative != pb.negative, static_cast<sass_u128>(pa.significand) * pb.significand,
                                 pa.exponent + pb.exponent, false, rounding));
}

SASS_SEMANTIC(double, dfma)(double a, double b, double c, sass_u32 rounding) {
  if (rounding == 0 || is_nan64(a) || is_nan64(b) || is_nan64(c) || is_inf64(a) || is_inf64(b) || is_inf64(c))
    return __builtin_fma(a, b, c);
  return exact_fma(a, b, c, rounding);
}

SASS_SEMANTIC(bool, dcmp)(double a, double b, sass_u32 cmp) {
  return compare_holds(cmp, a < b, a == b, a > b, is_nan64(a) || is_nan64(b));
}

SASS_SEMANTIC(bool, dsetp_minmax)(double a, double b, bool min, bool* both_nan) {
  const bool a_nan = is_nan64(a), b_nan = is_nan64(b);
  *both_nan = a_nan && b_nan;
  if (a_nan) return false;
  if (b_nan) return true;
  if (a == b) {
    // -0 is below +0: min picks a negative a, max a positive one; equal values: a.
    const bool a_negative = (bits64(a) >> 63) != 0, b_negative = (bits64(b) >> 63) != 0;
    if (a_negative == b_negative) return true;
    return min ? a_negative : !a_negative;
  }
  return (a < b) == min;
}

SASS_SEMANTIC(double, dmnmx)(double a, double b, bool min) {
  bool both_nan = false;
  const bool take_a = gpuport_sass_dsetp_minmax(a, b, min, &both_nan);
  if (both_nan) return quiet64(a);
  return take_a ? a : b;
}
