// What the runtime's array (arrays.cc) and texture/surface (textures.cc) families share: the
// linear layout of a hipArray in device memory, the data format of a channel description, and
// the array copy that hipMemcpy3D hands array operands to. Internal to the library.
#pragma once

#include "emu/image_descriptors.h"
#include "emu/runtime/runtime.h"

namespace gpuport::emu::hip {

// A hipArray's memory: rows of `pitch` bytes (the width rounded up to 256 bytes, ROCr's gfx11
// linear layout), `rows` rows per slice, `slices` slices (3D depth or layers), at array->data.
struct ArrayLayout {
  std::uint32_t element_bytes = 0, channels = 0, bits = 0;
  hipChannelFormatKind kind = hipChannelFormatKindNone;
  std::uint32_t width = 0, rows = 1, slices = 1;
  std::size_t pitch = 0;
  std::uint32_t image_type = descriptors::image::img_2d;  // SQ_RSRC_IMG_*
  bool layered = false;
  std::size_t row_bytes() const { return static_cast<std::size_t>(width) * element_bytes; }
  std::size_t slice_bytes() const { return pitch * rows; }
};

// The layout of a live array made by this runtime, or null.
const ArrayLayout* array_layout(hipArray_const_t array);

// Channels, bits per channel and kind of a channel description: 1, 2 or 4 channels of one width
// (8, 16 or 32 bits; float 16 or 32). False for any other description.
bool channel_layout(const hipChannelFormatDesc& desc, std::uint32_t& channels, std::uint32_t& bits);

// The channel description of a driver-API array format with `channels` channels (1, 2 or 4;
// any other count gives one channel_layout refuses).
hipChannelFormatDesc channel_desc_of(hipArray_Format format, unsigned channels);

// hipMemcpy3D and hipMemcpy3DAsync with an array operand (srcArray or dstArray set): extent
// and array positions in elements, pitched-pointer positions in bytes. The linear-only 3D copy
// is hipMemcpy3D's own; it calls this when either side is an array.
hipError_t copy_3d_with_arrays(const hipMemcpy3DParms& p);
// hipMemcpyParam2D with an array on either side.
hipError_t copy_param_2d_with_arrays(const hip_Memcpy2D* p);

}  // namespace gpuport::emu::hip
