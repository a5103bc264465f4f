// Array copies HIP 6 adds (arrays to and from device memory and each other, per-thread forms) and
// its array queries. Compiled into libamdhip64.so.6 only; calls the core and, for the per-thread
// forms, the entry points of emu/runtime/hip/ they stand for.
#include <cstring>
#include "emu/runtime/core/images.h"

using namespace gpuport::emu::hip;

// ---- copies HIP 6 adds: arrays to and from device memory and each other, per-thread forms ----
// Device memory is addressable here as host memory is: the same linear copies serve both.
hipError_t hipMemcpyAtoD(hipDeviceptr_t dst, hipArray_t src, size_t offset, size_t count) {
  return copy_linear(src, offset, dst, count, false);
}
hipError_t hipMemcpyDtoA(hipArray_t dst, size_t offset, hipDeviceptr_t src, size_t count) {
  return copy_linear(dst, offset, src, count, true);
}
hipError_t hipMemcpyAtoA(hipArray_t dst, size_t dst_offset, hipArray_t src, size_t src_offset, size_t count) {
  std::vector<char> bytes(count);
  if (hipError_t e = copy_linear(src, src_offset, bytes.data(), count, false)) return e;
  return copy_linear(dst, dst_offset, bytes.data(), count, true);
}
hipError_t hipMemcpyHtoAAsync(hipArray_t dst, size_t offset, const void* src, size_t count, hipStream_t) {
  return copy_linear(dst, offset, const_cast<void*>(src), count, true);
}
hipError_t hipMemcpyAtoHAsync(void* dst, hipArray_t src, size_t offset, size_t count, hipStream_t) {
  return copy_linear(src, offset, dst, count, false);
}
hipError_t hipMemcpy2DArrayToArray(hipArray_t dst, size_t dst_x, size_t dst_y, hipArray_const_t src, size_t src_x, size_t src_y,
                                   size_t width, size_t height, hipMemcpyKind) {
  const ArrayLayout *dl = nullptr, *sl = nullptr;
  char* to = array_at(dst, dst_x, dst_y, 0, width, height, 1, dl);
  const char* from = array_at(src, src_x, src_y, 0, width, height, 1, sl);
  if (!to || !from) return ret(hipErrorInvalidValue);
  return copy_rows(to, dl->pitch, from, sl->pitch, width, height);
}
hipError_t hipMemcpy2DToArrayAsync_spt(hipArray_t dst, size_t wOffset, size_t hOffset, const void* src, size_t spitch, size_t width,
                                       size_t height, hipMemcpyKind kind, hipStream_t) {
  return hipMemcpy2DToArray(dst, wOffset, hOffset, src, spitch, width, height, kind);
}
hipError_t hipMemcpy2DFromArrayAsync_spt(void* dst, size_t dpitch, hipArray_const_t src, size_t wOffset, size_t hOffset, size_t width,
                                         size_t height, hipMemcpyKind kind, hipStream_t) {
  return hipMemcpy2DFromArray(dst, dpitch, src, wOffset, hOffset, width, height, kind);
}
hipError_t hipMemcpyFromArray_spt(void* dst, hipArray_const_t src, size_t wOffset, size_t hOffset, size_t count, hipMemcpyKind) {
  return copy_linear_at(src, wOffset, hOffset, dst, count, false);
}

// HIP 6's queries of an array, whose members its headers no longer show.
hipError_t hipArrayGetInfo(hipChannelFormatDesc* desc, hipExtent* extent, unsigned int* flags, hipArray_t array) {
  if (!array_layout(array)) return ret(hipErrorInvalidHandle);
  if (desc) *desc = array->desc;
  if (extent) *extent = make_hipExtent(array->width, array->height, array->depth);
  if (flags) *flags = array->type;
  return hipSuccess;
}
hipError_t hipArrayGetDescriptor(HIP_ARRAY_DESCRIPTOR* descriptor, hipArray_t array) {
  if (!descriptor) return ret(hipErrorInvalidValue);
  if (!array_layout(array)) return ret(hipErrorInvalidHandle);
  *descriptor = {array->width, array->height, array->Format, array->NumChannels};
  return hipSuccess;
}
hipError_t hipArray3DGetDescriptor(HIP_ARRAY3D_DESCRIPTOR* descriptor, hipArray_t array) {
  if (!descriptor) return ret(hipErrorInvalidValue);
  if (!array_layout(array)) return ret(hipErrorInvalidHandle);
  *descriptor = {array->width, array->height, array->depth, array->Format, array->NumChannels, array->type};
  return hipSuccess;
}
