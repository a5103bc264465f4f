// IEEE binary16 conversions (round to nearest even), for the 16-bit VALU forms.
#pragma once

#include <cstdint>
#include <cstring>

namespace gpuport::emu {

inline float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000) << 16;
  std::uint32_t exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff, bits;
  if (exponent == 0) {
    if (mantissa == 0) bits = sign;
    else {  // subnormal: normalise
      int e = -1;
      do {
        ++e;
        mantissa <<= 1;
      } while (!(mantissa & 0x400));
      bits = sign | static_cast<std::uint32_t>(127 - 15 - e) << 23 | (mantissa & 0x3ff) << 13;
    }
  } else if (exponent == 31) bits = sign | 0x7f800000u | mantissa << 13;
  else bits = sign | (exponent + 112) << 23 | mantissa << 13;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

inline std::uint16_t float_to_half(float f) {
  std::uint32_t x;
  std::memcpy(&x, &f, 4);
  const std::uint16_t sign = static_cast<std::uint16_t>((x >> 16) & 0x8000);
  const std::uint32_t abs = x & 0x7fffffffu;
  if (abs >= 0x7f800000u) return static_cast<std::uint16_t>(sign | 0x7c00 | (abs > 0x7f800000u ? 0x200 | ((abs >> 13) & 0x3ff) : 0));
  if (abs >= 0x477ff000u) return static_cast<std::uint16_t>(sign | 0x7c00);  // rounds to infinity
  if (abs < 0x38800000u) {  // subnormal or zero in half
    if (abs < 0x33000000u) return sign;
    const std::uint32_t e = abs >> 23;
    const std::uint32_t m = (abs & 0x7fffff) | 0x800000;
    const std::uint32_t shift = 126 - e;  // value = m * 2^(e - 150) = (m >> shift) * 2^-24
    std::uint32_t h = m >> shift;
    const std::uint32_t rem = m & ((1u << shift) - 1), half_way = 1u << (shift - 1);
    if (rem > half_way || (rem == half_way && (h & 1))) ++h;
    return static_cast<std::uint16_t>(sign | h);
  }
  std::uint32_t h = ((abs - 0x38000000u) >> 13);
  const std::uint32_t rem = abs & 0x1fff;
  if (rem > 0x1000 || (rem == 0x1000 && (h & 1))) ++h;
  return static_cast<std::uint16_t>(sign | h);
}

}  // namespace gpuport::emu
