// What the image (semantics_image.cc) and buffer (semantics_buffer.cc) families share: the
// conversion of one element of a data format to and from the four 32-bit values an instruction
// returns or stores (unorm, snorm, scaled, int, float, sRGB), destination selects, 16-bit (D16)
// data, and the memory modifiers of MUBUF/MTBUF/MIMG instructions.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "emu/image_descriptors.h"
#include "emu/machine.h"

namespace gpuport::emu::texels {

using descriptors::DataFormat;

// Four channel values as register bits: float bits for every numeric format but uint/sint,
// whose values are the integers themselves.
using Values = std::array<std::uint32_t, 4>;

// One element of `format` at p (channels the format lacks read 0). The format must have a
// layout (DataFormat::channels != 0).
Values decode(const DataFormat& format, const std::uint8_t* p);

// Converts `values` (floats or integers as the format's numeric type wants) into one element at
// p: floats to unorm/snorm round to nearest even after clamping (NaN gives 0), integers saturate
// to the channel's range, f32 to f16 rounds to nearest even. False for formats that cannot be
// stored (scaled, sRGB): the caller reports it.
bool encode(const DataFormat& format, const Values& values, std::uint8_t* p);

// 1 in the format's numeric type: what DST_SEL = SEL_1 returns.
inline std::uint32_t one(const DataFormat& format) { return format.integer() ? 1u : 0x3f800000u; }

// Applies four destination selects (descriptors::Sel) to decoded channels.
Values select(const Values& channels, const std::array<std::uint8_t, 4>& sel, const DataFormat& format);

// The selects under which a store writes channel k of the element from component k: the
// identity over the format's channels. Stores through other selects are not emulated.
bool identity_select(const std::array<std::uint8_t, 4>& sel, const DataFormat& format);

// A returned value as 16 bits (D16 loads): f16 for float-returning formats (rounded to nearest
// even), the low 16 bits for 8- and 16-bit integer channels. Nothing for 32-bit integer
// channels, whose narrowing the ISA guide does not define.
std::optional<std::uint16_t> to_d16(const DataFormat& format, std::uint32_t value);
// A 16-bit stored value (D16 stores) widened to what encode() takes.
std::uint32_t from_d16(const DataFormat& format, std::uint16_t value);

// The memory modifiers of a MUBUF, MTBUF or MIMG instruction, read from the modifiers the
// operand parser keeps by name (Modifiers::unknown). `error` names the first one not understood.
struct MemoryModifiers {
  bool offen = false, idxen = false;              // MUBUF/MTBUF: VGPR offset, VGPR index
  std::uint32_t format = 0;                       // MTBUF: format:[BUF_FMT_*] (a FORMAT value)
  bool has_format = false;
  std::uint32_t dmask = 0;                        // MIMG
  std::uint32_t dim = descriptors::image::img_1d; // MIMG: dim:SQ_RSRC_IMG_*
  bool has_dim = false;
  bool unorm = false, d16 = false, a16 = false, tfe = false, lwe = false;
  std::string error;
};
MemoryModifiers memory_modifiers(const Modifiers& m);

// The buffer family (MUBUF and MTBUF instructions): tried by resolve_image.
Handler resolve_buffer(const ParsedInstruction& p, Step& step);

}  // namespace gpuport::emu::texels
