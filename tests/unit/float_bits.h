// The bits of floats and doubles and back, for the semantics tests.
#pragma once

#include <bit>
#include <cstdint>

namespace gpuport::testing {

inline std::uint32_t bits(float f) { return std::bit_cast<std::uint32_t>(f); }
inline float from_bits(std::uint32_t b) { return std::bit_cast<float>(b); }
inline std::uint64_t bits64(double d) { return std::bit_cast<std::uint64_t>(d); }
inline double from_bits64(std::uint64_t b) { return std::bit_cast<double>(b); }

}  // namespace gpuport::testing
