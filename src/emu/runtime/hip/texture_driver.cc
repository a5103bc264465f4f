// The driver-API side of the texture family: hipTexObject* take the HIP_RESOURCE_DESC,
// HIP_TEXTURE_DESC and HIP_RESOURCE_VIEW_DESC structures and stand for the runtime-API texture
// objects of textures.cc (as in HIP 5.2, which converts them the same way: HIP_TRSF_* flags to
// the read mode, coordinates and sRGB, a format and channel count to a channel description), and
// hipModuleGetTexRef hands out a module's `texture<>` variable as a texture reference.
#include <cstring>

#include "emu/runtime/core/images.h"

namespace gpuport::emu::hip {
namespace {

// A channel description as the driver API's format and channel count; false when it has none.
bool driver_format(const hipChannelFormatDesc& desc, hipArray_Format& format, unsigned int& channels) {
  std::uint32_t count = 0, bits = 0;
  if (!channel_layout(desc, count, bits)) return false;
  channels = count;
  switch (desc.f) {
    case hipChannelFormatKindFloat: format = bits == 16 ? HIP_AD_FORMAT_HALF : HIP_AD_FORMAT_FLOAT; return true;
    case hipChannelFormatKindSigned:
      format = bits == 8 ? HIP_AD_FORMAT_SIGNED_INT8 : bits == 16 ? HIP_AD_FORMAT_SIGNED_INT16 : HIP_AD_FORMAT_SIGNED_INT32;
      return true;
    default:
      format = bits == 8 ? HIP_AD_FORMAT_UNSIGNED_INT8 : bits == 16 ? HIP_AD_FORMAT_UNSIGNED_INT16 : HIP_AD_FORMAT_UNSIGNED_INT32;
      return true;
  }
}

bool runtime_resource(const HIP_RESOURCE_DESC& in, hipResourceDesc& out) {
  out = {};
  switch (in.resType) {
    case HIP_RESOURCE_TYPE_ARRAY:
      out.resType = hipResourceTypeArray;
      out.res.array.array = in.res.array.hArray;
      return true;
    case HIP_RESOURCE_TYPE_MIPMAPPED_ARRAY:
      out.resType = hipResourceTypeMipmappedArray;
      out.res.mipmap.mipmap = in.res.mipmap.hMipmappedArray;
      return true;
    case HIP_RESOURCE_TYPE_LINEAR:
      out.resType = hipResourceTypeLinear;
      out.res.linear.devPtr = in.res.linear.devPtr;
      out.res.linear.desc = channel_desc_of(in.res.linear.format, in.res.linear.numChannels);
      out.res.linear.sizeInBytes = in.res.linear.sizeInBytes;
      return true;
    case HIP_RESOURCE_TYPE_PITCH2D:
      out.resType = hipResourceTypePitch2D;
      out.res.pitch2D.devPtr = in.res.pitch2D.devPtr;
      out.res.pitch2D.desc = channel_desc_of(in.res.pitch2D.format, in.res.pitch2D.numChannels);
      out.res.pitch2D.width = in.res.pitch2D.width;
      out.res.pitch2D.height = in.res.pitch2D.height;
      out.res.pitch2D.pitchInBytes = in.res.pitch2D.pitchInBytes;
      return true;
  }
  return false;
}

bool driver_resource(const hipResourceDesc& in, HIP_RESOURCE_DESC& out) {
  std::memset(&out, 0, sizeof(out));
  switch (in.resType) {
    case hipResourceTypeArray:
      out.resType = HIP_RESOURCE_TYPE_ARRAY;
      out.res.array.hArray = in.res.array.array;
      return true;
    case hipResourceTypeMipmappedArray:
      out.resType = HIP_RESOURCE_TYPE_MIPMAPPED_ARRAY;
      out.res.mipmap.hMipmappedArray = in.res.mipmap.mipmap;
      return true;
    case hipResourceTypeLinear:
      out.resType = HIP_RESOURCE_TYPE_LINEAR;
      out.res.linear.devPtr = in.res.linear.devPtr;
      out.res.linear.sizeInBytes = in.res.linear.sizeInBytes;
      return driver_format(in.res.linear.desc, out.res.linear.format, out.res.linear.numChannels);
    case hipResourceTypePitch2D:
      out.resType = HIP_RESOURCE_TYPE_PITCH2D;
      out.res.pitch2D.devPtr = in.res.pitch2D.devPtr;
      out.res.pitch2D.width = in.res.pitch2D.width;
      out.res.pitch2D.height = in.res.pitch2D.height;
      out.res.pitch2D.pitchInBytes = in.res.pitch2D.pitchInBytes;
      return driver_format(in.res.pitch2D.desc, out.res.pitch2D.format, out.res.pitch2D.numChannels);
  }
  return false;
}

// The two enumerations of address modes, filter modes and view formats have the same values.
hipTextureDesc runtime_texture(const HIP_TEXTURE_DESC& in) {
  hipTextureDesc out{};
  for (int i = 0; i < 3; ++i) out.addressMode[i] = static_cast<hipTextureAddressMode>(in.addressMode[i]);
  out.filterMode = static_cast<hipTextureFilterMode>(in.filterMode);
  out.readMode = in.flags & HIP_TRSF_READ_AS_INTEGER ? hipReadModeElementType : hipReadModeNormalizedFloat;
  out.normalizedCoords = in.flags & HIP_TRSF_NORMALIZED_COORDINATES ? 1 : 0;
  out.sRGB = in.flags & HIP_TRSF_SRGB ? 1 : 0;
  out.maxAnisotropy = in.maxAnisotropy;
  out.mipmapFilterMode = static_cast<hipTextureFilterMode>(in.mipmapFilterMode);
  out.mipmapLevelBias = in.mipmapLevelBias;
  out.minMipmapLevelClamp = in.minMipmapLevelClamp;
  out.maxMipmapLevelClamp = in.maxMipmapLevelClamp;
  std::memcpy(out.borderColor, in.borderColor, sizeof(out.borderColor));
  return out;
}

HIP_TEXTURE_DESC driver_texture(const hipTextureDesc& in) {
  HIP_TEXTURE_DESC out;
  std::memset(&out, 0, sizeof(out));
  for (int i = 0; i < 3; ++i) out.addressMode[i] = static_cast<HIPaddress_mode>(in.addressMode[i]);
  out.filterMode = static_cast<HIPfilter_mode>(in.filterMode);
  out.flags = (in.readMode == hipReadModeElementType ? HIP_TRSF_READ_AS_INTEGER : 0) |
              (in.normalizedCoords ? HIP_TRSF_NORMALIZED_COORDINATES : 0) | (in.sRGB ? HIP_TRSF_SRGB : 0);
  out.maxAnisotropy = in.maxAnisotropy;
  out.mipmapFilterMode = static_cast<HIPfilter_mode>(in.mipmapFilterMode);
  out.mipmapLevelBias = in.mipmapLevelBias;
  out.minMipmapLevelClamp = in.minMipmapLevelClamp;
  out.maxMipmapLevelClamp = in.maxMipmapLevelClamp;
  std::memcpy(out.borderColor, in.borderColor, sizeof(out.borderColor));
  return out;
}

}  // namespace
}  // namespace gpuport::emu::hip

using namespace gpuport::emu::hip;

hipError_t hipTexObjectCreate(hipTextureObject_t* object, const HIP_RESOURCE_DESC* resource, const HIP_TEXTURE_DESC* texture,
                              const HIP_RESOURCE_VIEW_DESC* view) {
  if (!object || !resource || !texture || resource->flags != 0) return ret(hipErrorInvalidValue);
  hipResourceDesc res;
  if (!runtime_resource(*resource, res)) return ret(hipErrorInvalidValue);
  const hipTextureDesc tex = runtime_texture(*texture);
  if (!view) return create_texture_object(object, &res, &tex, nullptr);
  hipResourceViewDesc v{};
  v.format = static_cast<hipResourceViewFormat>(view->format);
  v.width = view->width;
  v.height = view->height;
  v.depth = view->depth;
  v.firstMipmapLevel = view->firstMipmapLevel;
  v.lastMipmapLevel = view->lastMipmapLevel;
  v.firstLayer = view->firstLayer;
  v.lastLayer = view->lastLayer;
  return create_texture_object(object, &res, &tex, &v);
}

hipError_t hipTexObjectDestroy(hipTextureObject_t object) { return destroy_object(object); }

hipError_t hipTexObjectGetResourceDesc(HIP_RESOURCE_DESC* out, hipTextureObject_t object) {
  const ObjectRecord* r = texture_record(object);
  if (!out || !r) return ret(hipErrorInvalidValue);
  return driver_resource(r->resource, *out) ? hipSuccess : ret(hipErrorInvalidValue);
}

hipError_t hipTexObjectGetTextureDesc(HIP_TEXTURE_DESC* out, hipTextureObject_t object) {
  const ObjectRecord* r = texture_record(object);
  if (!out || !r) return ret(hipErrorInvalidValue);
  *out = driver_texture(r->texture);
  return hipSuccess;
}

hipError_t hipTexObjectGetResourceViewDesc(HIP_RESOURCE_VIEW_DESC* out, hipTextureObject_t object) {
  const ObjectRecord* r = texture_record(object);
  if (!out || !r) return ret(hipErrorInvalidValue);
  const hipResourceViewDesc v = r->view;
  std::memset(out, 0, sizeof(*out));
  out->format = static_cast<HIPresourceViewFormat>(v.format);
  out->width = v.width;
  out->height = v.height;
  out->depth = v.depth;
  out->firstMipmapLevel = v.firstMipmapLevel;
  out->lastMipmapLevel = v.lastMipmapLevel;
  out->firstLayer = v.firstLayer;
  out->lastLayer = v.lastLayer;
  return hipSuccess;
}

// The texture reference is the module's `texture<>` variable itself: device memory is the
// host's, so the setters (hipTexRefSetArray, hipTexRefSetAddress, ...) write what device code
// reads, and the reference lives as long as its module. Driver-API references read normalized
// floats until told otherwise (HIP 5.2 sets the read mode so).
hipError_t hipModuleGetTexRef(textureReference** ref, hipModule_t module, const char* name) {
  if (!ref || !name) return ret(hipErrorInvalidValue);
  std::lock_guard lock(runtime().mutex);
  for (const auto& m : runtime().modules) {
    if (reinterpret_cast<hipModule_t>(m.get()) != module || !m->code_object) continue;
    const auto* g = find_global(*m, name);
    if (!g || g->size != sizeof(textureReference)) return ret(hipErrorNotFound);
    auto* r = reinterpret_cast<textureReference*>(m->code_object->memory.data() + g->address);
    r->readMode = hipReadModeNormalizedFloat;
    *ref = r;
    return hipSuccess;
  }
  return ret(hipErrorNotFound);  // HIP 5.2: a module it does not know has no texture of that name
}
