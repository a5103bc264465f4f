#include "sass/control.h"

namespace gpuport::sass {

ControlCode decode_control_bits(std::uint32_t bits) {
  bits &= 0x1fffffu;
  ControlCode c;
  c.stall = static_cast<std::uint8_t>(bits & 0xfu);
  c.yield = ((bits >> 4) & 1u) != 0;
  c.write_barrier = static_cast<std::uint8_t>((bits >> 5) & 7u);
  c.read_barrier = static_cast<std::uint8_t>((bits >> 8) & 7u);
  c.wait_mask = static_cast<std::uint8_t>((bits >> 11) & 0x3fu);
  c.reuse = static_cast<std::uint8_t>((bits >> 17) & 0xfu);
  c.bits = bits;
  return c;
}

ControlCode decode_maxwell_control(std::uint64_t control_word, int slot) {
  if (slot < 0 || slot > 2) return ControlCode{};
  return decode_control_bits(static_cast<std::uint32_t>(control_word >> (21 * slot)));
}

ControlCode decode_volta_control(std::uint64_t high_word) {
  return decode_control_bits(static_cast<std::uint32_t>(high_word >> 41));
}

}  // namespace gpuport::sass
