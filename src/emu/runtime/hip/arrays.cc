// HIP arrays of the runtime API (hipMallocArray, hipMalloc3DArray, hipArrayCreate,
// hipArray3DCreate) and the copies to and from them, over the core's arrays (core/arrays.cc).
// Copies complete when issued, like every other operation of this runtime.
#include <cstring>

#include "emu/runtime/core/images.h"

using namespace gpuport::emu::hip;

// ---- allocation ------------------------------------------------------------------------------
hipError_t hipMallocArray(hipArray** array, const hipChannelFormatDesc* desc, size_t width, size_t height, unsigned int flags) {
  if (!desc) return ret(hipErrorInvalidValue);
  return create_array(array, *desc, width, height, 0, flags, false);
}
hipError_t hipMalloc3DArray(hipArray** array, const hipChannelFormatDesc* desc, hipExtent extent, unsigned int flags) {
  if (!desc) return ret(hipErrorInvalidValue);
  return create_array(array, *desc, extent.width, extent.height, extent.depth, flags, false);
}
hipError_t hipArrayCreate(hipArray** array, const HIP_ARRAY_DESCRIPTOR* d) {
  if (!d) return ret(hipErrorInvalidValue);
  return create_array(array, channel_desc_of(d->Format, d->NumChannels), d->Width, d->Height, 0, 0, true);
}
hipError_t hipArray3DCreate(hipArray** array, const HIP_ARRAY3D_DESCRIPTOR* d) {
  if (!d) return ret(hipErrorInvalidValue);
  return create_array(array, channel_desc_of(d->Format, d->NumChannels), d->Width, d->Height, d->Depth, d->Flags, true);
}
hipError_t hipFreeArray(hipArray* array) { return destroy_array(array); }
hipError_t hipArrayDestroy(hipArray* array) { return destroy_array(array); }
hipError_t hipGetChannelDesc(hipChannelFormatDesc* desc, hipArray_const_t array) {
  if (!desc || !array_layout(array)) return ret(hipErrorInvalidValue);
  *desc = array->desc;
  return hipSuccess;
}

// ---- copies ----------------------------------------------------------------------------------
hipError_t hipMemcpy2DToArray(hipArray* dst, size_t wOffset, size_t hOffset, const void* src, size_t spitch, size_t width,
                              size_t height, hipMemcpyKind) {
  const ArrayLayout* l = nullptr;
  char* at = array_at(dst, wOffset, hOffset, 0, width, height, 1, l);
  if (!at || (height > 1 && spitch < width)) return ret(l && spitch < width ? hipErrorInvalidPitchValue : hipErrorInvalidValue);
  return copy_rows(at, l->pitch, static_cast<const char*>(src), spitch, width, height);
}
hipError_t hipMemcpy2DToArrayAsync(hipArray* dst, size_t wOffset, size_t hOffset, const void* src, size_t spitch, size_t width,
                                   size_t height, hipMemcpyKind kind, hipStream_t) {
  return hipMemcpy2DToArray(dst, wOffset, hOffset, src, spitch, width, height, kind);
}
hipError_t hipMemcpy2DToArray_spt(hipArray* dst, size_t wOffset, size_t hOffset, const void* src, size_t spitch, size_t width,
                                  size_t height, hipMemcpyKind kind) {
  return hipMemcpy2DToArray(dst, wOffset, hOffset, src, spitch, width, height, kind);
}
hipError_t hipMemcpy2DFromArray(void* dst, size_t dpitch, hipArray_const_t src, size_t wOffset, size_t hOffset, size_t width,
                                size_t height, hipMemcpyKind) {
  const ArrayLayout* l = nullptr;
  const char* at = array_at(src, wOffset, hOffset, 0, width, height, 1, l);
  if (!at || (height > 1 && dpitch < width)) return ret(l && dpitch < width ? hipErrorInvalidPitchValue : hipErrorInvalidValue);
  return copy_rows(static_cast<char*>(dst), dpitch, at, l->pitch, width, height);
}
hipError_t hipMemcpy2DFromArrayAsync(void* dst, size_t dpitch, hipArray_const_t src, size_t wOffset, size_t hOffset, size_t width,
                                     size_t height, hipMemcpyKind kind, hipStream_t) {
  return hipMemcpy2DFromArray(dst, dpitch, src, wOffset, hOffset, width, height, kind);
}
hipError_t hipMemcpy2DFromArray_spt(void* dst, size_t dpitch, hipArray_const_t src, size_t wOffset, size_t hOffset, size_t width,
                                    size_t height, hipMemcpyKind kind) {
  return hipMemcpy2DFromArray(dst, dpitch, src, wOffset, hOffset, width, height, kind);
}
hipError_t hipMemcpyToArray(hipArray* dst, size_t wOffset, size_t hOffset, const void* src, size_t count, hipMemcpyKind) {
  return copy_linear_at(dst, wOffset, hOffset, const_cast<void*>(src), count, true);
}
hipError_t hipMemcpyFromArray(void* dst, hipArray_const_t src, size_t wOffset, size_t hOffset, size_t count, hipMemcpyKind) {
  return copy_linear_at(src, wOffset, hOffset, dst, count, false);
}
hipError_t hipMemcpyAtoH(void* dst, hipArray* src, size_t offset, size_t count) { return copy_linear(src, offset, dst, count, false); }
hipError_t hipMemcpyHtoA(hipArray* dst, size_t offset, const void* src, size_t count) {
  return copy_linear(dst, offset, const_cast<void*>(src), count, true);
}
