// Control codes: the scheduling bits NVIDIA stores beside every instruction (stall cycles,
// yield, write/read scoreboards, wait mask, operand reuse). Decoded from the raw encoding words
// nvdisasm prints with -hex, for both encoding families.
#pragma once

#include <cstdint>

#include "sass/program.h"

namespace gpuport::sass {

// Maxwell/Pascal: one 64-bit control word leads each bundle of three instructions; slot s
// (0..2) owns bits [21*s, 21*s+21): stall 0-3, yield 4, write barrier 5-7, read barrier 8-10,
// wait mask 11-16, reuse 17-20.
ControlCode decode_maxwell_control(std::uint64_t control_word, int slot);

// Volta and later: the same 21 fields sit in bits 41..61 of the instruction's high word
// (bits 105..125 of the 128-bit instruction).
ControlCode decode_volta_control(std::uint64_t high_word);

// The 21-bit field in the common layout above.
ControlCode decode_control_bits(std::uint32_t bits);

}  // namespace gpuport::sass
