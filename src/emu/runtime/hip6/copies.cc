// The per-thread forms of the linear copies and memsets HIP 6 adds. Compiled into libamdhip64.so.6
// only; calls the core and, for the per-thread forms, the entry points of emu/runtime/hip/ they
// stand for.
#include "emu/runtime/core/queues.h"

#include <cstring>

using namespace gpuport::emu::hip;

// ---- per-thread variants HIP 6 adds ---------------------------------------------------------
hipError_t hipMemcpy2DAsync_spt(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height, hipMemcpyKind kind,
                                hipStream_t stream) {
  return hipMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind, per_thread(stream));
}
hipError_t hipMemcpyToSymbolAsync_spt(const void* symbol, const void* src, size_t bytes, size_t offset, hipMemcpyKind kind,
                                      hipStream_t stream) {
  return hipMemcpyToSymbolAsync(symbol, src, bytes, offset, kind, per_thread(stream));
}
hipError_t hipMemcpyFromSymbolAsync_spt(void* dst, const void* symbol, size_t bytes, size_t offset, hipMemcpyKind kind,
                                        hipStream_t stream) {
  return hipMemcpyFromSymbolAsync(dst, symbol, bytes, offset, kind, per_thread(stream));
}
hipError_t hipMemsetAsync_spt(void* dst, int value, size_t bytes, hipStream_t stream) {
  return hipMemsetAsync(dst, value, bytes, per_thread(stream));
}
hipError_t hipMemset2DAsync_spt(void* dst, size_t pitch, int value, size_t width, size_t height, hipStream_t stream) {
  return hipMemset2DAsync(dst, pitch, value, width, height, per_thread(stream));
}
