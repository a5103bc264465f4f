// Reference number formats for the emulator's tests: IEEE binary16 and bfloat16 written from the
// formats' definitions, independent of the emulator's own conversions (tests/unit/emu_packed_test.cc
// checks them against the host compiler's _Float16).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace gpuport::reference {

using u16 = std::uint16_t;

// IEEE binary16 and bfloat16 from long double, round to nearest even, written from the format's
// definition: scale to the target's integer significand at its exponent (or the minimum exponent
// for subnormals), round the integer, re-encode.
inline u16 round_to_format(long double x, int mantissa_bits, int exponent_bits) {
  const int bias = (1 << (exponent_bits - 1)) - 1;
  const u16 sign = std::signbit(x) ? u16(1u << (mantissa_bits + exponent_bits)) : 0;
  const u16 inf = u16(((1u << exponent_bits) - 1) << mantissa_bits);
  if (std::isnan(x)) return sign | inf | u16(1u << (mantissa_bits - 1));
  long double a = std::fabs(x);
  if (std::isinf(a)) return sign | inf;
  if (a == 0) return sign;
  int e;
  std::frexp(a, &e);  // a in [2^(e-1), 2^e)
  int exponent = std::max(e - 1, 1 - bias);
  long double significand = std::nearbyint(std::ldexp(a, mantissa_bits - exponent));  // ties to even
  if (significand == std::ldexp(1.0L, mantissa_bits + 1)) {
    significand /= 2;
    ++exponent;
  }
  if (exponent > bias) return sign | inf;
  const auto m = static_cast<std::uint32_t>(significand);
  if (m < (1u << mantissa_bits)) return sign | u16(m);  // subnormal
  return sign | u16((exponent + bias) << mantissa_bits) | u16(m - (1u << mantissa_bits));
}
inline u16 to_half(long double x) { return round_to_format(x, 10, 5); }
inline u16 to_bf16(long double x) { return round_to_format(x, 7, 8); }
inline long double from_format(u16 h, int mantissa_bits, int exponent_bits) {
  const int bias = (1 << (exponent_bits - 1)) - 1;
  const int e = (h >> mantissa_bits) & ((1 << exponent_bits) - 1);
  const int m = h & ((1 << mantissa_bits) - 1);
  long double v;
  if (e == (1 << exponent_bits) - 1) v = m ? NAN : INFINITY;
  else if (e == 0) v = std::ldexp(static_cast<long double>(m), 1 - bias - mantissa_bits);
  else v = std::ldexp(static_cast<long double>(m | 1 << mantissa_bits), e - bias - mantissa_bits);
  return (h >> (mantissa_bits + exponent_bits)) & 1 ? -v : v;
}
inline long double hv(u16 h) { return from_format(h, 10, 5); }
inline long double bv(u16 h) { return from_format(h, 7, 8); }
inline bool half_nan(u16 h) { return (h & 0x7fff) > 0x7c00; }

}  // namespace gpuport::reference
