// Sixteen bytes at a time with the compiler's portable vector types (GCC and clang): the scans
// of whole files (UTF-8 check, the headers-only include scan) look at blocks, not bytes.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

namespace gpuport {

using Bytes16 = signed char __attribute__((vector_size(16)));

inline Bytes16 load16(const char* p) {
  Bytes16 v;
  std::memcpy(&v, p, 16);
  return v;
}

// The index of the first set byte of a comparison's result (each byte 0 or all ones); 16 when
// none is set.
inline unsigned first_set(Bytes16 mask) {
  std::uint64_t half[2];
  std::memcpy(half, &mask, 16);
  if constexpr (std::endian::native == std::endian::little) {
    if (half[0] != 0) return static_cast<unsigned>(std::countr_zero(half[0]) / 8);
    if (half[1] != 0) return 8 + static_cast<unsigned>(std::countr_zero(half[1]) / 8);
    return 16;
  } else {
    for (unsigned k = 0; k < 16; ++k)
      if (mask[k] != 0) return k;
    return 16;
  }
}

}  // namespace gpuport
