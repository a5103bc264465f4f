// A hash for identifiers, in constant time: the first and last eight bytes and the length.
// Names sharing a prefix still differ at the end or in length; the lookups it serves (API
// tables, a function's variables) are the inner loops of translation.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace gpuport {

inline std::uint32_t name_hash(std::string_view n) {
  std::uint64_t head = 0, tail = 0;
  const std::size_t k = n.size() < 8 ? n.size() : 8;
  std::memcpy(&head, n.data(), k);
  std::memcpy(&tail, n.data() + n.size() - k, k);
  std::uint64_t h = (head * 0x9E3779B97F4A7C15ull) ^ (tail * 0xC2B2AE3D27D4EB4Full) ^ (n.size() * 0x165667B19E3779F9ull);
  h ^= h >> 32;
  return static_cast<std::uint32_t>(h ^ (h >> 17));
}

}  // namespace gpuport
