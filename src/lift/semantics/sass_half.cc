// Packed half-precision SASS semantics; see sass_half.h. f16 results are rounded once from the
// exact value: a*b + c of f16 operands is held exactly as a double plus its error (TwoSum), turned
// into round-to-odd at double precision, which then rounds correctly to f16 (53 >= 11 + 2 bits).
#include "lift/semantics/sass_half.h"

namespace {

inline sass_u64 bits64(double x) { return __builtin_bit_cast(sass_u64, x); }
inline double from_bits64(sass_u64 b) { return __builtin_bit_cast(double, b); }

// The exact value s + e (|e| at most half an ulp of s) rounded to odd at double precision.
double round_to_odd(double s, double e) {
  if (e == 0.0 || (bits64(s) & 1) != 0) return s;
  const sass_u64 b = bits64(s);
  const bool s_negative = (b >> 63) != 0;
  const bool away = (e > 0.0) != s_negative;  // e pushes |s| up
  return from_bits64(away ? b + 1 : b - 1);
}

sass_u16 round_half_toward_zero(double x) {
  const sass_u16 n = gpuport_sass_half_from_double(x);
  const double back = gpuport_sass_double_from_half(n);
  if ((n & 0x7fffu) >= 0x7c00u) {
    if ((n & 0x7fffu) > 0x7c00u) return n;  // NaN
    return static_cast<sass_u16>((n & 0x8000u) | 0x7bffu);  // overflow: the largest finite
  }
  if ((x >= 0 && back > x) || (x < 0 && back < x)) return static_cast<sass_u16>(n - 1);
  return n;
}

}  // namespace

SASS_SEMANTIC(sass_u16, half_from_double)(double x) {
  const sass_u64 b = bits64(x);
  const sass_u16 sign = static_cast<sass_u16>((b >> 48) & 0x8000u);
  const int exponent = static_cast<int>((b >> 52) & 0x7ff);
  sass_u64 mantissa = b & 0xfffffffffffffull;
  if (exponent == 0x7ff) return static_cast<sass_u16>(sign | 0x7c00u | (mantissa ? 0x200u | (mantissa >> 42) : 0));
  const int e = exponent - 1023;  // unbiased
  if (e > 15) return static_cast<sass_u16>(sign | 0x7c00u);
  if (exponent == 0 || e < -26) return sign;  // below half the smallest denormal (2^-25): rounds to 0
  mantissa |= 1ull << 52;  // the leading 1
  // Bits to drop so that the f16 ulp is the last kept bit: normal f16 (e >= -14) keeps 10
  // fraction bits; denormals fewer.
  const int shift = e >= -14 ? 42 : 42 + (-14 - e);
  const sass_u64 kept = mantissa >> shift;
  const sass_u64 rest = mantissa & ((1ull << shift) - 1);
  const sass_u64 half = 1ull << (shift - 1);
  sass_u64 r = kept + ((rest > half || (rest == half && (kept & 1))) ? 1 : 0);
  // r holds the f16 significand with its leading bit (normals) or the denormal value; the biased
  // exponent follows from where the leading bit is.
  sass_u32 out;
  if (e >= -14) {
    sass_u32 biased = static_cast<sass_u32>(e + 15);
    if (r >> 11) {  // rounding carried into a new leading bit
      r >>= 1;
      ++biased;
    }
    if (biased >= 31) return static_cast<sass_u16>(sign | 0x7c00u);
    out = (biased << 10) | static_cast<sass_u32>(r & 0x3ffu);
  } else {
    out = static_cast<sass_u32>(r);  // a denormal (r <= 0x400: 0x400 is the smallest normal)
  }
  return static_cast<sass_u16>(sign | out);
}

SASS_SEMANTIC(double, double_from_half)(sass_u16 h) {
  const double sign = (h & 0x8000u) ? -1.0 : 1.0;
  const sass_u32 e = (h >> 10) & 0x1f, m = h & 0x3ffu;
  if (e == 0x1f) return m ? from_bits64(0x7ff8000000000000ull | (static_cast<sass_u64>(m) << 42)) * sign : sign * __builtin_inf();
  if (e == 0) return sign * static_cast<double>(m) * 0x1p-24;
  return sign * static_cast<double>(m | 0x400u) * __builtin_ldexp(1.0, static_cast<int>(e) - 25);
}

SASS_SEMANTIC(sass_u16, hfma)(sass_u16 a, sass_u16 b, sass_u16 c, sass_u32 rounding, bool sat) {
  const double da = gpuport_sass_double_from_half(a), db = gpuport_sass_double_from_half(b);
  const double dc = gpuport_sass_double_from_half(c);
  const double p = da * db;  // exact: 11 x 11 bits
  const double s = p + dc;
  const double pv = s - dc, cv = s - pv;
  const double e = (p - pv) + (dc - cv);  // exact error of s (TwoSum)
  double x = s;
  if (s == s && s - s == 0) x = round_to_odd(s, e);  // finite
  sass_u16 r = rounding == 3 ? round_half_toward_zero(x) : gpuport_sass_half_from_double(x);
  if (sat) {
    const double v = gpuport_sass_double_from_half(r);
    if (v != v || v <= 0.0) r = (v == 0.0 && (r & 0x8000u)) ? r : 0;
    else if (v > 1.0) r = 0x3c00u;
  }
  return r;
}

SASS_SEMANTIC(sass_u32, hfma2)(sass_u32 a, sass_u32 b, sass_u32 c, sass_u32 rounding, bool sat) {
  const sass_u16 lo = gpuport_sass_hfma(static_cast<sass_u16>(a), static_cast<sass_u16>(b), static_cast<sass_u16>(c), rounding, sat);
  const sass_u16 hi = gpuport_sass_hfma(static_cast<sass_u16>(a >> 16), static_cast<sass_u16>(b >> 16), static_cast<sass_u16>(c >> 16),
                                        rounding, sat);
  return (static_cast<sass_u32>(hi) << 16) | lo;
}
