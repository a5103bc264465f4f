// Packed half-precision SASS semantics; see sass_half.h. f16 results are rounded once from the
// exact value: a*b + c of f16 operands is held exactly as a double plus its error (TwoSum), turned
// into round-to-odd at double precision, which then rounds correctly to f16 (53 >= 11 + 2 bits).
#include "lift/semantics/sass_half.h"

#include "lift/semantics/sass_float.h"

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
  return gpuport_sass_hfma_format(a, b, c, 2, rounding, sat, false);
}

SASS_SEMANTIC(sass_u32, hfma2)(sass_u32 a, sass_u32 b, sass_u32 c, sass_u32 rounding, bool sat) {
  const sass_u16 lo = gpuport_sass_hfma(static_cast<sass_u16>(a), static_cast<sass_u16>(b), static_cast<sass_u16>(c), rounding, sat);
  const sass_u16 hi = gpuport_sass_hfma(static_cast<sass_u16>(a >> 16), static_cast<sass_u16>(b >> 16), static_cast<sass_u16>(c >> 16),
                                        rounding, sat);
  return (static_cast<sass_u32>(hi) << 16) | lo;
}

namespace {

constexpr sass_u16 kCanonicalHalfNan = 0x7fff;

inline bool is_nan16(sass_u16 h, sass_u32 format) {
  return format == 3 ? (h & 0x7fffu) > 0x7f80u : (h & 0x7fffu) > 0x7c00u;
}
inline sass_u16 flush16(sass_u16 h, sass_u32 format) {
  const sass_u32 exponent_mask = format == 3 ? 0x7f80u : 0x7c00u;
  return (h & exponent_mask) == 0 ? static_cast<sass_u16>(h & 0x8000u) : h;
}
// Exact: f16 and bf16 values are doubles (NaNs quiet).
inline double to_double(sass_u16 h, sass_u32 format) {
  return __builtin_bit_cast(double, gpuport_sass_f2f(h, format, 1, 0, false));
}

}  // namespace

SASS_SEMANTIC(sass_u16, hfma_format)(sass_u16 a, sass_u16 b, sass_u16 c, sass_u32 format, sass_u32 rounding, bool sat, bool ftz) {
  if (ftz) a = flush16(a, format), b = flush16(b, format), c = flush16(c, format);
  const double da = to_double(a, format), db = to_double(b, format), dc = to_double(c, format);
  const double p = da * db;  // exact: at most 11 x 11 bits, exponents far inside f64's range
  const double s = p + dc;
  sass_u16 r;
  if (s != s) {
    r = kCanonicalHalfNan;
  } else {
    double x = s;
    if (s - s == 0) {  // finite: the exact p + c rounded to odd at f64, then once to 16 bits
      const double pv = s - dc, cv = s - pv;
      x = round_to_odd(s, (p - pv) + (dc - cv));
      // An exact zero sum of opposite signs is -0 when rounding down (IEEE 754 6.3).
      if (s == 0.0 && p == -dc && rounding == 1 && ((bits64(p) ^ bits64(dc)) >> 63) != 0) x = -0.0;
    }
    r = static_cast<sass_u16>(gpuport_sass_f2f(bits64(x), 1, format, rounding, false));
  }
  if (ftz) r = flush16(r, format);
  if (sat) {
    const double v = to_double(r, format);
    if (v != v || v < 0.0) r = 0;
    else if (v > 1.0) r = format == 3 ? 0x3f80u : 0x3c00u;
  }
  return r;
}

SASS_SEMANTIC(sass_u32, hfma2_format)(sass_u32 a, sass_u32 b, sass_u32 c, sass_u32 format, sass_u32 rounding, bool sat, bool ftz) {
  const sass_u16 lo = gpuport_sass_hfma_format(static_cast<sass_u16>(a), static_cast<sass_u16>(b), static_cast<sass_u16>(c), format,
                                               rounding, sat, ftz);
  const sass_u16 hi = gpuport_sass_hfma_format(static_cast<sass_u16>(a >> 16), static_cast<sass_u16>(b >> 16),
                                               static_cast<sass_u16>(c >> 16), format, rounding, sat, ftz);
  return (static_cast<sass_u32>(hi) << 16) | lo;
}

SASS_SEMANTIC(float, half_to_float)(sass_u16 h, sass_u32 format, bool ftz) {
  if (ftz) h = flush16(h, format);
  return __builtin_bit_cast(float, static_cast<sass_u32>(gpuport_sass_f2f(h, format, 0, 0, false)));
}

SASS_SEMANTIC(bool, hcmp)(sass_u16 a, sass_u16 b, sass_u32 format, sass_u32 cmp, bool ftz) {
  return gpuport_sass_fcmp(gpuport_sass_half_to_float(a, format, ftz), gpuport_sass_half_to_float(b, format, ftz), cmp, false);
}

SASS_SEMANTIC(sass_u16, hmnmx)(sass_u16 a, sass_u16 b, sass_u32 format, bool min, bool ftz) {
  if (ftz) a = flush16(a, format), b = flush16(b, format);
  const bool a_nan = is_nan16(a, format), b_nan = is_nan16(b, format);
  if (a_nan && b_nan) return kCanonicalHalfNan;
  if (a_nan) return b;
  if (b_nan) return a;
  const double da = to_double(a, format), db = to_double(b, format);
  if (da == db) {  // +0 and -0: min gives -0, max +0
    const sass_u16 sign = min ? ((a | b) & 0x8000u) : ((a & b) & 0x8000u);
    return static_cast<sass_u16>((a & 0x7fffu) | sign);
  }
  return (da < db) == min ? a : b;
}

SASS_SEMANTIC(sass_u16, hmnmx_nan)(sass_u16 a, sass_u16 b, sass_u32 format, bool min, bool ftz) {
  if (is_nan16(a, format) || is_nan16(b, format)) return kCanonicalHalfNan;
  return gpuport_sass_hmnmx(a, b, format, min, ftz);
}

SASS_SEMANTIC(sass_u32, hfma2_relu)(sass_u32 a, sass_u32 b, sass_u32 c, sass_u32 format, sass_u32 rounding, bool ftz) {
  const sass_u32 r = gpuport_sass_hfma2_format(a, b, c, format, rounding, false, ftz);
  sass_u32 out = 0;
  for (int lane = 0; lane < 2; ++lane) {
    const sass_u16 h = static_cast<sass_u16>(r >> (16 * lane));
    sass_u16 v = h;
    if (is_nan16(h, format)) v = kCanonicalHalfNan;
    else if (h & 0x8000u) v = 0;  // negative or -0
    out |= static_cast<sass_u32>(v) << (16 * lane);
  }
  return out;
}
