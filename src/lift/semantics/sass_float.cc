// Float SASS semantics; see sass_float.h. Directed rounding (.RZ/.RM/.RP) is computed from the
// round-to-nearest result and the exact error of the operation (error-free transformations), so
// it needs no rounding-mode control from the target.
#include "lift/semantics/sass_float.h"

namespace {

inline sass_u32 bits(float x) { return __builtin_bit_cast(sass_u32, x); }
inline float from_bits(sass_u32 b) { return __builtin_bit_cast(float, b); }
inline sass_u64 bits64(double x) { return __builtin_bit_cast(sass_u64, x); }
inline double from_bits64(sass_u64 b) { return __builtin_bit_cast(double, b); }

inline bool is_nan(float x) { return (bits(x) & 0x7fffffffu) > 0x7f800000u; }
inline bool is_inf(float x) { return (bits(x) & 0x7fffffffu) == 0x7f800000u; }

inline float flush(float x) { return (bits(x) & 0x7f800000u) == 0 ? from_bits(bits(x) & 0x80000000u) : x; }

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

float finish(float r, bool ftz, bool sat) {
  if (ftz) r = flush(r);
  if (sat) {
    if (is_nan(r)) return 0.0f;
    if (r < 0.0f) return 0.0f;  // -0 stays -0: not below 0
    if (r > 1.0f) return 1.0f;
  }
  return r;
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
  if (rounding == 0) p = a * b;
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
  const bool unordered = is_nan(a) || is_nan(b);
  const bool lt = a < b, eq = a == b, gt = a > b;
  switch (cmp) {
    case 0: return false;
    case 1: return lt;
    case 2: return eq;
    case 3: return lt || eq;
    case 4: return gt;
    case 5: return lt || gt;
    case 6: return gt || eq;
    case 7: return !unordered;
    case 8: return unordered;
    case 9: return unordered || lt;
    case 10: return unordered || eq;
    case 11: return unordered || lt || eq;
    case 12: return unordered || gt;
    case 13: return unordered || lt || gt;
    case 14: return unordered || gt || eq;
    default: return true;
  }
}

SASS_SEMANTIC(float, fmnmx)(float a, float b, bool min, bool ftz) {
  if (ftz) a = flush(a), b = flush(b);
  if (is_nan(a) && is_nan(b)) return from_bits(0x7fffffffu);
  if (is_nan(a)) return b;
  if (is_nan(b)) return a;
  if (a == b) {  // +0 and -0: min gives -0, max +0
    const sass_u32 sign = min ? ((bits(a) | bits(b)) & 0x80000000u) : ((bits(a) & bits(b)) & 0x80000000u);
    return from_bits((bits(a) & 0x7fffffffu) | sign);
  }
  return (a < b) == min ? a : b;
}

SASS_SEMANTIC(sass_u32, mufu)(sass_u32 a, sass_u32 op) {
  const float x = from_bits(a);
  switch (op) {
    case 0: return bits(gpuport_hook_cos_approx(x));
    case 1: return bits(gpuport_hook_sin_approx(x));
    case 2: return bits(gpuport_hook_exp2_approx(x));
    case 3: return bits(gpuport_hook_log2_approx(x));
    case 4: return bits(gpuport_hook_rcp_approx(x));
    case 5: return bits(gpuport_hook_rsqrt_approx(x));
    case 6: {
      const double d = from_bits64(static_cast<sass_u64>(a) << 32);
      return static_cast<sass_u32>(bits64(1.0 / d) >> 32);
    }
    case 7: {
      const double d = from_bits64(static_cast<sass_u64>(a) << 32);
      return static_cast<sass_u32>(bits64(1.0 / __builtin_sqrt(d)) >> 32);
    }
    case 8: return bits(gpuport_hook_sqrt_approx(x));
    default: return bits(gpuport_hook_tanh_approx(x));
  }
}

SASS_SEMANTIC(bool, fchk)(float a, float b) {
  // The fast path (reciprocal, two refinements, residual) is exact for normal operands whose
  // quotient is far from the range limits; everything else takes the slow path, which is
  // correct for all inputs. Being conservative costs time, never a wrong result.
  const int ea = static_cast<int>((bits(a) >> 23) & 0xff);
  const int eb = static_cast<int>((bits(b) >> 23) & 0xff);
  if (eb == 0 || eb == 0xff || ea == 0xff) return true;
  if (eb < 3 || eb > 252) return true;
  if (ea == 0) return (bits(a) & 0x7fffffffu) != 0;  // a denormal numerator; 0 is fine
  const int eq = ea - eb;
  return eq < -124 || eq > 125 || ea < 25;
}
