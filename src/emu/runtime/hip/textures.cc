// Texture objects, surface objects and texture references of the HIP runtime API, over the
// core's objects (core/textures.cc, which says what their descriptors hold).
#include <cstring>

#include "emu/runtime/core/images.h"

using namespace gpuport::emu::hip;

// ---- registration --------------------------------------------------------------------------
extern "C" {
// A `texture<>` (or `surface<>`) variable: its device copy (a textureReference, or a
// surfaceReference) is what device code reads; binding copies the host one there.
void __hipRegisterTexture(void** modules, void* var, char* /*host_var*/, char* device_var, int, int, int) {
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  rt.variables[var] = {reinterpret_cast<Module*>(modules), device_var, sizeof(textureReference)};
}
void __hipRegisterSurface(void** modules, void* var, char* /*host_var*/, char* device_var, int, int) {
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  rt.variables[var] = {reinterpret_cast<Module*>(modules), device_var, sizeof(surfaceReference)};
}
hipChannelFormatDesc hipCreateChannelDesc(int x, int y, int z, int w, hipChannelFormatKind f) { return {x, y, z, w, f}; }
}  // extern "C"

// ---- texture and surface objects -------------------------------------------------------------
hipError_t hipCreateTextureObject(hipTextureObject_t* out, const hipResourceDesc* res, const hipTextureDesc* tex, const hipResourceViewDesc* view) {
  return create_texture_object(out, res, tex, view);
}
hipError_t hipDestroyTextureObject(hipTextureObject_t object) { return destroy_object(object); }
hipError_t hipGetTextureObjectResourceDesc(hipResourceDesc* out, hipTextureObject_t object) {
  const ObjectRecord* r = texture_record(object);
  if (!out || !r) return ret(hipErrorInvalidValue);
  *out = r->resource;
  return hipSuccess;
}
hipError_t hipGetTextureObjectResourceViewDesc(hipResourceViewDesc* out, hipTextureObject_t object) {
  const ObjectRecord* r = texture_record(object);
  if (!out || !r) return ret(hipErrorInvalidValue);
  *out = r->view;
  return hipSuccess;
}
hipError_t hipGetTextureObjectTextureDesc(hipTextureDesc* out, hipTextureObject_t object) {
  const ObjectRecord* r = texture_record(object);
  if (!out || !r) return ret(hipErrorInvalidValue);
  *out = r->texture;
  return hipSuccess;
}
hipError_t hipCreateSurfaceObject(hipSurfaceObject_t* out, const hipResourceDesc* res) { return create_surface_object(out, res); }
hipError_t hipDestroySurfaceObject(hipSurfaceObject_t object) { return destroy_object(object); }

// ---- texture references ----------------------------------------------------------------------
namespace gpuport::emu::hip {
namespace {
hipError_t bind_linear(size_t* offset, const textureReference* ref, const void* ptr, const hipChannelFormatDesc* desc, size_t size) {
  if (!ref || !ptr || !desc) return ret(hipErrorInvalidValue);
  const void* base = nullptr;
  if (hipError_t e = aligned(ptr, offset, base); e != hipSuccess) return e;
  hipResourceDesc res{};
  res.resType = hipResourceTypeLinear;
  res.res.linear.devPtr = const_cast<void*>(base);
  res.res.linear.desc = *desc;
  res.res.linear.sizeInBytes = bytes_to_end(base, size + (static_cast<const char*>(ptr) - static_cast<const char*>(base)));
  return bind_reference(ref, res, nullptr);
}
hipError_t bind_pitch2d(size_t* offset, const textureReference* ref, const void* ptr, const hipChannelFormatDesc* desc, size_t width,
                        size_t height, size_t pitch) {
  if (!ref || !ptr || !desc) return ret(hipErrorInvalidValue);
  const void* base = nullptr;
  if (hipError_t e = aligned(ptr, offset, base); e != hipSuccess) return e;
  hipResourceDesc res{};
  res.resType = hipResourceTypePitch2D;
  res.res.pitch2D.devPtr = const_cast<void*>(base);
  res.res.pitch2D.desc = *desc;
  res.res.pitch2D.width = width;
  res.res.pitch2D.height = height;
  res.res.pitch2D.pitchInBytes = pitch;
  return bind_reference(ref, res, nullptr);
}
hipError_t bind_array(const textureReference* ref, hipArray_const_t array, const hipChannelFormatDesc* desc) {
  if (!ref || !array || !desc) return ret(hipErrorInvalidValue);
  hipResourceDesc res{};
  res.resType = hipResourceTypeArray;
  res.res.array.array = const_cast<hipArray_t>(array);
  const hipResourceViewDesc view = view_of(*desc, array);
  return bind_reference(ref, res, &view);
}
}  // namespace
}  // namespace gpuport::emu::hip

hipError_t hipBindTexture(size_t* offset, const textureReference* ref, const void* ptr, const hipChannelFormatDesc* desc, size_t size) {
  return bind_linear(offset, ref, ptr, desc, size);
}
hipError_t hipBindTexture2D(size_t* offset, const textureReference* ref, const void* ptr, const hipChannelFormatDesc* desc, size_t width,
                            size_t height, size_t pitch) {
  return bind_pitch2d(offset, ref, ptr, desc, width, height, pitch);
}
hipError_t hipBindTextureToArray(const textureReference* ref, hipArray_const_t array, const hipChannelFormatDesc* desc) {
  return bind_array(ref, array, desc);
}
hipError_t hipUnbindTexture(const textureReference* ref) {
  if (!ref) return ret(hipErrorInvalidValue);
  auto* r = const_cast<textureReference*>(ref);
  const hipError_t e = destroy_object(r->textureObject);
  r->textureObject = nullptr;
  return e;
}
hipError_t hipGetTextureReference(const textureReference** ref, const void* symbol) {
  if (!ref) return ret(hipErrorInvalidValue);
  *ref = static_cast<const textureReference*>(symbol);
  return hipSuccess;
}
hipError_t hipGetTextureAlignmentOffset(size_t* offset, const textureReference* ref) {
  if (!offset || !ref) return ret(hipErrorInvalidValue);
  *offset = 0;
  return hipSuccess;
}
hipError_t hipTexRefSetAddressMode(textureReference* ref, int dim, hipTextureAddressMode mode) {
  if (!ref || dim < 0 || dim > 2) return ret(hipErrorInvalidValue);
  ref->addressMode[dim] = mode;
  return hipSuccess;
}
hipError_t hipTexRefSetFilterMode(textureReference* ref, hipTextureFilterMode mode) {
  if (!ref) return ret(hipErrorInvalidValue);
  ref->filterMode = mode;
  return hipSuccess;
}
hipError_t hipTexRefSetFlags(textureReference* ref, unsigned int flags) {
  if (!ref) return ret(hipErrorInvalidValue);
  ref->readMode = flags & HIP_TRSF_READ_AS_INTEGER ? hipReadModeElementType : hipReadModeNormalizedFloat;
  ref->normalized = flags & HIP_TRSF_NORMALIZED_COORDINATES ? 1 : 0;
  ref->sRGB = flags & HIP_TRSF_SRGB ? 1 : 0;
  return hipSuccess;
}
hipError_t hipTexRefSetFormat(textureReference* ref, hipArray_Format format, int channels) {
  if (!ref) return ret(hipErrorInvalidValue);
  ref->format = format;
  ref->numChannels = channels;
  return hipSuccess;
}
hipError_t hipTexRefSetArray(textureReference* ref, hipArray_const_t array, unsigned int) {
  if (!ref || !array) return ret(hipErrorInvalidValue);
  return bind_array(ref, array, &array->desc);
}
hipError_t hipTexRefSetAddress(size_t* offset, textureReference* ref, hipDeviceptr_t ptr, size_t bytes) {
  if (!ref) return ret(hipErrorInvalidValue);
  const hipChannelFormatDesc desc = channel_desc_of(ref->format, static_cast<unsigned>(ref->numChannels));
  return bind_linear(offset, ref, ptr, &desc, bytes);
}
hipError_t hipTexRefSetAddress2D(textureReference* ref, const HIP_ARRAY_DESCRIPTOR* d, hipDeviceptr_t ptr, size_t pitch) {
  if (!ref || !d) return ret(hipErrorInvalidValue);
  const hipChannelFormatDesc desc = channel_desc_of(d->Format, d->NumChannels);
  return bind_pitch2d(nullptr, ref, ptr, &desc, d->Width, d->Height, pitch);
}
hipError_t hipTexRefSetMaxAnisotropy(textureReference* ref, unsigned int value) {
  if (!ref) return ret(hipErrorInvalidValue);
  ref->maxAnisotropy = value;
  return hipSuccess;
}
hipError_t hipTexRefSetMipmapFilterMode(textureReference* ref, hipTextureFilterMode mode) {
  if (!ref) return ret(hipErrorInvalidValue);
  ref->mipmapFilterMode = mode;
  return hipSuccess;
}
hipError_t hipTexRefSetMipmapLevelBias(textureReference* ref, float bias) {
  if (!ref) return ret(hipErrorInvalidValue);
  ref->mipmapLevelBias = bias;
  return hipSuccess;
}
hipError_t hipTexRefSetMipmapLevelClamp(textureReference* ref, float min, float max) {
  if (!ref) return ret(hipErrorInvalidValue);
  ref->minMipmapLevelClamp = min;
  ref->maxMipmapLevelClamp = max;
  return hipSuccess;
}
hipError_t hipTexRefSetBorderColor(textureReference* ref, float*) {
  if (!ref) return ret(hipErrorInvalidValue);
  runtime().say_unsupported("hipTexRefSetBorderColor (textureReference has no border colour)");
  return ret(hipErrorNotSupported);
}
hipError_t hipTexRefGetAddress(hipDeviceptr_t* out, const textureReference* ref) {
  if (!out || !ref) return ret(hipErrorInvalidValue);
  const ObjectRecord* r = record_of(ref->textureObject);
  if (!r || r->resource.resType == hipResourceTypeArray) return ret(hipErrorInvalidValue);
  *out = r->resource.resType == hipResourceTypeLinear ? r->resource.res.linear.devPtr : r->resource.res.pitch2D.devPtr;
  return hipSuccess;
}
hipError_t hipTexRefGetAddressMode(hipTextureAddressMode* out, const textureReference* ref, int dim) {
  if (!out || !ref || dim < 0 || dim > 2) return ret(hipErrorInvalidValue);
  *out = ref->addressMode[dim];
  return hipSuccess;
}
hipError_t hipTexRefGetFilterMode(hipTextureFilterMode* out, const textureReference* ref) {
  if (!out || !ref) return ret(hipErrorInvalidValue);
  *out = ref->filterMode;
  return hipSuccess;
}
hipError_t hipTexRefGetFlags(unsigned int* out, const textureReference* ref) {
  if (!out || !ref) return ret(hipErrorInvalidValue);
  *out = (ref->readMode == hipReadModeElementType ? HIP_TRSF_READ_AS_INTEGER : 0) | (ref->normalized ? HIP_TRSF_NORMALIZED_COORDINATES : 0) |
         (ref->sRGB ? HIP_TRSF_SRGB : 0);
  return hipSuccess;
}
hipError_t hipTexRefGetFormat(hipArray_Format* format, int* channels, const textureReference* ref) {
  if (!format || !channels || !ref) return ret(hipErrorInvalidValue);
  *format = ref->format;
  *channels = ref->numChannels;
  return hipSuccess;
}
hipError_t hipTexRefGetMaxAnisotropy(int* out, const textureReference* ref) {
  if (!out || !ref) return ret(hipErrorInvalidValue);
  *out = static_cast<int>(ref->maxAnisotropy);
  return hipSuccess;
}
hipError_t hipTexRefGetMipmapFilterMode(hipTextureFilterMode* out, const textureReference* ref) {
  if (!out || !ref) return ret(hipErrorInvalidValue);
  *out = ref->mipmapFilterMode;
  return hipSuccess;
}
hipError_t hipTexRefGetMipmapLevelBias(float* out, const textureReference* ref) {
  if (!out || !ref) return ret(hipErrorInvalidValue);
  *out = ref->mipmapLevelBias;
  return hipSuccess;
}
hipError_t hipTexRefGetMipmapLevelClamp(float* min, float* max, const textureReference* ref) {
  if (!min || !max || !ref) return ret(hipErrorInvalidValue);
  *min = ref->minMipmapLevelClamp;
  *max = ref->maxMipmapLevelClamp;
  return hipSuccess;
}
