// Copies and memsets over linear memory (1D, 2D, symbols), synchronous and stream-ordered, as
// operations through submit(): a synchronous one is first refused where a capture forbids
// potentially unsafe calls, then issued on the legacy stream (or the per-thread stream for the
// _spt forms); an asynchronous one is issued on its stream and captured when the stream captures.
#include "emu/runtime/core/queues.h"

#include <cstring>

using namespace gpuport::emu::hip;

namespace {

// A synchronous call: refused where a capture forbids it, then ordered on `stream`.
hipError_t synchronous(hipStream_t stream, Operation op) {
  if (hipError_t e = check_unsafe_call()) return e;
  return submit(stream, std::move(op));
}

template <typename Copy>
hipError_t copy(const char* call, hipStream_t stream, const Copy& c, bool sync) {
  if (hipError_t e = check_copy(c, call)) return e;
  return sync ? synchronous(stream, c) : submit(stream, c);
}

hipError_t memset_of(const char* call, hipStream_t stream, void* dst, unsigned value, unsigned element, size_t count, bool sync) {
  if (count == 0) return hipSuccess;
  hipMemsetParams p{};
  p.dst = dst;
  p.elementSize = element;
  p.width = count;
  p.height = 1;
  p.pitch = count * element;
  p.value = value;
  if (hipError_t e = check_memset(p, call)) return e;
  return sync ? synchronous(stream, p) : submit(stream, p);
}

hipError_t memset_2d(const char* call, hipStream_t stream, void* dst, size_t pitch, int value, size_t width, size_t height, bool sync) {
  if (width == 0 || height == 0) return hipSuccess;
  if (pitch < width && height > 1) return ret(hipErrorInvalidPitchValue);
  hipMemsetParams p{};
  p.dst = dst;
  p.elementSize = 1;
  p.width = width;
  p.height = height;
  p.pitch = pitch;
  p.value = static_cast<unsigned char>(value);
  if (hipError_t e = check_memset(p, call)) return e;
  return sync ? synchronous(stream, p) : submit(stream, p);
}

hipError_t copy_2d(const char* call, hipStream_t stream, void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                   hipMemcpyKind kind, bool sync) {
  if (width > dpitch || width > spitch) return ret(hipErrorInvalidPitchValue);
  hipMemcpy3DParms p{};
  p.srcPtr = make_hipPitchedPtr(const_cast<void*>(src), spitch, width, height);
  p.dstPtr = make_hipPitchedPtr(dst, dpitch, width, height);
  p.extent = make_hipExtent(width, height, 1);
  p.kind = kind;
  return copy(call, stream, p, sync);
}

}  // namespace

hipError_t hipMemcpy(void* dst, const void* src, size_t bytes, hipMemcpyKind kind) { return copy(__func__, nullptr, Copy1D{dst, src, bytes, kind}, true); }
hipError_t hipMemcpy_spt(void* dst, const void* src, size_t bytes, hipMemcpyKind kind) {
  return copy(__func__, hipStreamPerThread, Copy1D{dst, src, bytes, kind}, true);
}
hipError_t hipMemcpyWithStream(void* dst, const void* src, size_t bytes, hipMemcpyKind kind, hipStream_t stream) {
  return copy(__func__, stream, Copy1D{dst, src, bytes, kind}, true);
}
hipError_t hipMemcpyAsync(void* dst, const void* src, size_t bytes, hipMemcpyKind kind, hipStream_t stream) {
  return copy(__func__, stream, Copy1D{dst, src, bytes, kind}, false);
}
hipError_t hipMemcpyAsync_spt(void* dst, const void* src, size_t bytes, hipMemcpyKind kind, hipStream_t stream) {
  return copy(__func__, stream ? stream : hipStreamPerThread, Copy1D{dst, src, bytes, kind}, false);
}
hipError_t hipMemcpyHtoD(hipDeviceptr_t dst, void* src, size_t bytes) { return copy(__func__, nullptr, Copy1D{dst, src, bytes, hipMemcpyHostToDevice}, true); }
hipError_t hipMemcpyDtoH(void* dst, hipDeviceptr_t src, size_t bytes) { return copy(__func__, nullptr, Copy1D{dst, src, bytes, hipMemcpyDeviceToHost}, true); }
hipError_t hipMemcpyDtoD(hipDeviceptr_t dst, hipDeviceptr_t src, size_t bytes) {
  return copy(__func__, nullptr, Copy1D{dst, src, bytes, hipMemcpyDeviceToDevice}, true);
}
hipError_t hipMemcpyHtoDAsync(hipDeviceptr_t dst, void* src, size_t bytes, hipStream_t stream) {
  return copy(__func__, stream, Copy1D{dst, src, bytes, hipMemcpyHostToDevice}, false);
}
hipError_t hipMemcpyDtoHAsync(void* dst, hipDeviceptr_t src, size_t bytes, hipStream_t stream) {
  return copy(__func__, stream, Copy1D{dst, src, bytes, hipMemcpyDeviceToHost}, false);
}
hipError_t hipMemcpyDtoDAsync(hipDeviceptr_t dst, hipDeviceptr_t src, size_t bytes, hipStream_t stream) {
  return copy(__func__, stream, Copy1D{dst, src, bytes, hipMemcpyDeviceToDevice}, false);
}
hipError_t hipMemcpyPeer(void* dst, int dst_device, const void* src, int src_device, size_t bytes) {
  if (dst_device != 0 || src_device != 0) return ret(hipErrorInvalidDevice);
  return copy(__func__, nullptr, Copy1D{dst, src, bytes, hipMemcpyDeviceToDevice}, true);
}
hipError_t hipMemcpyPeerAsync(void* dst, int dst_device, const void* src, int src_device, size_t bytes, hipStream_t stream) {
  if (dst_device != 0 || src_device != 0) return ret(hipErrorInvalidDevice);
  return copy(__func__, stream, Copy1D{dst, src, bytes, hipMemcpyDeviceToDevice}, false);
}
hipError_t hipMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height, hipMemcpyKind kind) {
  return copy_2d(__func__, nullptr, dst, dpitch, src, spitch, width, height, kind, true);
}
hipError_t hipMemcpy2D_spt(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height, hipMemcpyKind kind) {
  return copy_2d(__func__, hipStreamPerThread, dst, dpitch, src, spitch, width, height, kind, true);
}
hipError_t hipMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height, hipMemcpyKind kind,
                            hipStream_t stream) {
  return copy_2d(__func__, stream, dst, dpitch, src, spitch, width, height, kind, false);
}

hipError_t hipMemcpyToSymbol(const void* symbol, const void* src, size_t bytes, size_t offset, hipMemcpyKind kind) {
  return copy(__func__, nullptr, CopyToSymbol{symbol, src, bytes, offset, kind}, true);
}
hipError_t hipMemcpyToSymbol_spt(const void* symbol, const void* src, size_t bytes, size_t offset, hipMemcpyKind kind) {
  return copy(__func__, hipStreamPerThread, CopyToSymbol{symbol, src, bytes, offset, kind}, true);
}
hipError_t hipMemcpyToSymbolAsync(const void* symbol, const void* src, size_t bytes, size_t offset, hipMemcpyKind kind, hipStream_t stream) {
  return copy(__func__, stream, CopyToSymbol{symbol, src, bytes, offset, kind}, false);
}
hipError_t hipMemcpyFromSymbol(void* dst, const void* symbol, size_t bytes, size_t offset, hipMemcpyKind kind) {
  return copy(__func__, nullptr, CopyFromSymbol{dst, symbol, bytes, offset, kind}, true);
}
hipError_t hipMemcpyFromSymbol_spt(void* dst, const void* symbol, size_t bytes, size_t offset, hipMemcpyKind kind) {
  return copy(__func__, hipStreamPerThread, CopyFromSymbol{dst, symbol, bytes, offset, kind}, true);
}
hipError_t hipMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t bytes, size_t offset, hipMemcpyKind kind, hipStream_t stream) {
  return copy(__func__, stream, CopyFromSymbol{dst, symbol, bytes, offset, kind}, false);
}

hipError_t hipMemset(void* dst, int value, size_t bytes) { return memset_of(__func__, nullptr, dst, static_cast<unsigned char>(value), 1, bytes, true); }
hipError_t hipMemset_spt(void* dst, int value, size_t bytes) {
  return memset_of(__func__, hipStreamPerThread, dst, static_cast<unsigned char>(value), 1, bytes, true);
}
hipError_t hipMemsetAsync(void* dst, int value, size_t bytes, hipStream_t stream) {
  return memset_of(__func__, stream, dst, static_cast<unsigned char>(value), 1, bytes, false);
}
hipError_t hipMemsetD8(hipDeviceptr_t dst, unsigned char value, size_t count) { return memset_of(__func__, nullptr, dst, value, 1, count, true); }
hipError_t hipMemsetD8Async(hipDeviceptr_t dst, unsigned char value, size_t count, hipStream_t stream) {
  return memset_of(__func__, stream, dst, value, 1, count, false);
}
hipError_t hipMemsetD16(hipDeviceptr_t dst, unsigned short value, size_t count) { return memset_of(__func__, nullptr, dst, value, 2, count, true); }
hipError_t hipMemsetD16Async(hipDeviceptr_t dst, unsigned short value, size_t count, hipStream_t stream) {
  return memset_of(__func__, stream, dst, value, 2, count, false);
}
hipError_t hipMemsetD32(hipDeviceptr_t dst, int value, size_t count) { return memset_of(__func__, nullptr, dst, static_cast<unsigned>(value), 4, count, true); }
hipError_t hipMemsetD32Async(hipDeviceptr_t dst, int value, size_t count, hipStream_t stream) {
  return memset_of(__func__, stream, dst, static_cast<unsigned>(value), 4, count, false);
}
hipError_t hipMemset2D(void* dst, size_t pitch, int value, size_t width, size_t height) {
  return memset_2d(__func__, nullptr, dst, pitch, value, width, height, true);
}
hipError_t hipMemset2D_spt(void* dst, size_t pitch, int value, size_t width, size_t height) {
  return memset_2d(__func__, hipStreamPerThread, dst, pitch, value, width, height, true);
}
hipError_t hipMemset2DAsync(void* dst, size_t pitch, int value, size_t width, size_t height, hipStream_t stream) {
  return memset_2d(__func__, stream, dst, pitch, value, width, height, false);
}
