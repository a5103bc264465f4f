// Mipmapped arrays of the HIP runtime API over the core's (core/mipmaps.cc, whose levels are
// ordinary arrays). Sampling across levels is another matter: HIP 5.2 refuses textures over a whole
// mipmapped array (ihipCreateTextureObject: "Mipmaps are currently not supported",
// hipErrorNotSupported), and so do hipBindTextureToMipmappedArray and hipTexRefSetMipmappedArray
// here, as core/textures.cc does for hipResourceTypeMipmappedArray. hipMemMapArrayAsync (sparse
// arrays and mipmaps, backed by hipMemCreate memory) is refused as HIP 5.2 refuses it.
#include "emu/runtime/core/images.h"

using namespace gpuport::emu::hip;

namespace {
constexpr const char* kNoMipmapTextures = "textures over whole mipmapped arrays are not supported (nor by HIP 5.2)";
}  // namespace

hipError_t hipMallocMipmappedArray(hipMipmappedArray_t* out, const hipChannelFormatDesc* desc, hipExtent extent, unsigned int levels,
                                   unsigned int flags) {
  if (!desc) return ret(hipErrorInvalidValue);
  return create_mipmap(out, *desc, extent.width, extent.height, extent.depth, levels, flags, false);
}
hipError_t hipMipmappedArrayCreate(hipMipmappedArray_t* out, HIP_ARRAY3D_DESCRIPTOR* desc, unsigned int levels) {
  if (!desc) return ret(hipErrorInvalidValue);
  return create_mipmap(out, channel_desc_of(desc->Format, desc->NumChannels), desc->Width, desc->Height, desc->Depth, levels,
                       desc->Flags, true);
}
hipError_t hipGetMipmappedArrayLevel(hipArray_t* out, hipMipmappedArray_const_t mipmap, unsigned int level) {
  return mipmap_level(out, mipmap, level);
}
hipError_t hipMipmappedArrayGetLevel(hipArray_t* out, hipMipmappedArray_t mipmap, unsigned int level) {
  return mipmap_level(out, mipmap, level);
}
hipError_t hipFreeMipmappedArray(hipMipmappedArray_t mipmap) { return destroy_mipmap(mipmap); }
hipError_t hipMipmappedArrayDestroy(hipMipmappedArray_t mipmap) { return destroy_mipmap(mipmap); }

hipError_t hipBindTextureToMipmappedArray(const textureReference* ref, hipMipmappedArray_const_t mipmap, const hipChannelFormatDesc* desc) {
  if (!ref || !mipmap || !desc || !is_mipmap(mipmap)) return ret(hipErrorInvalidValue);
  return refuse("hipBindTextureToMipmappedArray", kNoMipmapTextures, hipErrorNotSupported);
}
hipError_t hipTexRefSetMipmappedArray(textureReference* ref, hipMipmappedArray* mipmap, unsigned int flags) {
  // HIP 5.2 takes only HIP_TRSA_OVERRIDE_FORMAT here.
  if (!ref || !mipmap || flags != HIP_TRSA_OVERRIDE_FORMAT || !is_mipmap(mipmap)) return ret(hipErrorInvalidValue);
  return refuse("hipTexRefSetMipmappedArray", kNoMipmapTextures, hipErrorNotSupported);
}

hipError_t hipMemMapArrayAsync(hipArrayMapInfo* list, unsigned int count, hipStream_t) {
  if (!list || count == 0) return ret(hipErrorInvalidValue);
  return refuse("hipMemMapArrayAsync", "sparse arrays are not supported (nor by HIP 5.2)", hipErrorNotSupported);
}
