// Images in the runtime's core: arrays (core/arrays.cc), mipmapped arrays (core/mipmaps.cc) and
// texture and surface objects (core/textures.cc): the linear layout of a hipArray in device
// memory, the data format of a channel description, the copies with an array on either side, and
// the objects' records. Internal to the library.
#pragma once

#include "emu/image_descriptors.h"
#include "emu/runtime/core/runtime.h"

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

// A new array of `desc` elements, width x height x depth (0 for a dimension it lacks), with
// hipArray* flags; `driver` for the driver API's (hipArrayCreate), whose limits differ. Destroyed
// with destroy_array, which releases its memory (null: nothing).
hipError_t create_array(hipArray** out, const hipChannelFormatDesc& desc, std::size_t width, std::size_t height, std::size_t depth,
                        unsigned int flags, bool driver);
hipError_t destroy_array(hipArray* array);
// A 2D region of bytes: `width` bytes of `height` rows, `pitch` bytes apart.
hipError_t copy_rows(char* dst, std::size_t dpitch, const char* src, std::size_t spitch, std::size_t width, std::size_t height);
// The array's bytes at byte column x_bytes of row y of slice z, if a region of width_bytes x
// height x depth from there lies inside the array (its layout in `layout`); else null.
char* array_at(hipArray_const_t array, std::size_t x_bytes, std::size_t y, std::size_t z, std::size_t width_bytes, std::size_t height,
               std::size_t depth, const ArrayLayout*& layout);
// Bytes [offset, offset + count) of the array's rows laid end to end (the unpadded view of the
// 1D copies), to or from memory the host addresses.
hipError_t copy_linear(hipArray_const_t array, std::size_t offset, void* host, std::size_t count, bool to_array);
// The same from byte column x of row y on (hipMemcpyToArray, hipMemcpyFromArray).
hipError_t copy_linear_at(hipArray_const_t array, size_t x, size_t y, void* host, size_t count, bool to_array);

// Mipmapped arrays: `levels` levels (clamped), each an array of `desc` elements made as
// create_array makes one; a level by index; destruction with every level.
hipError_t create_mipmap(hipMipmappedArray_t* out, const hipChannelFormatDesc& desc, std::size_t width, std::size_t height,
                         std::size_t depth, unsigned int levels, unsigned int flags, bool driver);
hipError_t mipmap_level(hipArray_t* out, hipMipmappedArray_const_t mipmap, unsigned int level);
hipError_t destroy_mipmap(hipMipmappedArray_t mipmap);
bool is_mipmap(hipMipmappedArray_const_t mipmap);

// The layout of a live array made by this runtime, or null.
const ArrayLayout* array_layout(hipArray_const_t array);

// Channels, bits per channel and kind of a channel description: 1, 2 or 4 channels of one width
// (8, 16 or 32 bits; float 16 or 32). False for any other description.
bool channel_layout(const hipChannelFormatDesc& desc, std::uint32_t& channels, std::uint32_t& bits);

// The channel description of a driver-API array format with `channels` channels (1, 2 or 4;
// any other count gives one channel_layout refuses).
hipChannelFormatDesc channel_desc_of(hipArray_Format format, unsigned channels);

// What the runtime keeps of a texture or surface object (what the program's getters read back).
struct ObjectRecord {
  hipResourceDesc resource{};
  hipTextureDesc texture{};
  hipResourceViewDesc view{};
  bool surface = false;
};
// Texture and surface objects: made from a resource (and, for textures, a texture and an optional
// view description; what HIP 5.2 refuses is refused), destroyed, and looked up (texture_record:
// null for a surface object).
hipError_t create_texture_object(hipTextureObject_t* out, const hipResourceDesc* res, const hipTextureDesc* tex,
                                 const hipResourceViewDesc* view);
hipError_t create_surface_object(hipSurfaceObject_t* out, const hipResourceDesc* res);
hipError_t make_object(void** out, const hipResourceDesc& res, const hipTextureDesc* tex, const hipResourceViewDesc* view, bool surface);
hipError_t destroy_object(const void* object);
const ObjectRecord* record_of(const void* object);
const ObjectRecord* texture_record(const void* object);

// Texture references (the module's `texture<>` variables): the texture description a reference's
// fields make; a new binding (a new texture object, copied to the device variable); the
// aligned-down address a linear binding uses (with the offset the program must add, which must
// then be asked for); the bytes of an allocation from `ptr` on (at most `requested`); the view of
// an array a binding uses.
hipTextureDesc texture_desc(const textureReference& r);
hipError_t bind_reference(const textureReference* ref, const hipResourceDesc& res, const hipResourceViewDesc* view);
hipError_t aligned(const void* ptr, size_t* offset, const void*& base);
size_t bytes_to_end(const void* ptr, size_t requested);
hipResourceViewDesc view_of(const hipChannelFormatDesc& desc, hipArray_const_t array);

// hipMemcpy3D and hipMemcpy3DAsync with an array operand (srcArray or dstArray set): extent
// and array positions in elements, pitched-pointer positions in bytes. The linear-only 3D copy
// is hipMemcpy3D's own; it calls this when either side is an array.
hipError_t copy_3d_with_arrays(const hipMemcpy3DParms& p);
// hipMemcpyParam2D with an array on either side.
hipError_t copy_param_2d_with_arrays(const hip_Memcpy2D* p);

}  // namespace gpuport::emu::hip
