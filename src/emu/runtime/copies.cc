// Copies and memsets over linear memory (1D, 2D, symbols), synchronous and stream-ordered, as
// operations through submit(): a synchronous one is first refused where a capture forbids
// potentially unsafe calls, then issued on the legacy stream (or the per-thread stream for the
// _spt forms); an asynchronous one is issued on its stream and captured when the stream captures.
#include "emu/runtime/streams.h"

#include <cstring>

namespace gpuport::emu::hip {

hipError_t check_range(const char* call, const char* role, const void* p, size_t count, bool write) {
  if (count == 0) return hipSuccess;
  auto& rt = runtime();
  const auto address = reinterpret_cast<std::uintptr_t>(p);
  std::string problem;
  {
    std::lock_guard lock(rt.mutex);
    // A block of the runtime's own (hipMalloc, hipHostMalloc, ...): the range must stay inside it.
    auto it = rt.allocations.upper_bound(address);
    if (it != rt.allocations.begin()) {
      --it;
      const size_t offset = address - it->first;
      if (offset < std::max<size_t>(it->second, 1)) {
        if (count <= it->second - offset) return hipSuccess;
        problem = fmt::format("runs {} bytes past the end of its block ({} of {} bytes at {:#x})", count - (it->second - offset),
                              rt.origin.count(it->first) ? rt.origin[it->first] : "allocation", it->second, it->first);
      }
    }
  }
  if (problem.empty()) {
    // Other memory the emulator knows (registered host memory, a code object's globals), or the
    // program's own host memory, as mapped with the access the copy needs.
    if (rt.memory.find(address, count) || host_memory_accessible(address, count, write)) return hipSuccess;
    problem = fmt::format("is neither an allocation nor memory the program may {} (nearest: {})", write ? "write" : "read",
                          rt.memory.describe_near(address));
  }
  rt.report_finding(fmt::format("{}: the {} [{:#x}, +{}) {}; returns hipErrorInvalidValue", call, role, address, count, problem));
  return ret(hipErrorInvalidValue);
}

hipError_t check_copy(const Copy1D& p, const char* call) {
  if (p.kind < hipMemcpyHostToHost || p.kind > hipMemcpyDefault) return ret(hipErrorInvalidMemcpyDirection);
  if (p.count && (!p.dst || !p.src)) return ret(hipErrorInvalidValue);
  if (hipError_t e = check_range(call, "destination", p.dst, p.count, true)) return e;
  return check_range(call, "source", p.src, p.count, false);
}

static hipError_t symbol_range(const void* symbol, size_t count, size_t offset, char** at) {
  size_t size = 0;
  char* p = static_cast<char*>(device_address_of(symbol, &size));
  if (!p) return ret(hipErrorInvalidSymbol);
  if (offset > size || count > size - offset) return ret(hipErrorInvalidValue);
  *at = p + offset;
  return hipSuccess;
}

hipError_t check_copy(const CopyFromSymbol& p, const char* call) {
  char* at = nullptr;
  if (hipError_t e = symbol_range(p.symbol, p.count, p.offset, &at)) return e;
  if (p.kind < hipMemcpyHostToHost || p.kind > hipMemcpyDefault) return ret(hipErrorInvalidMemcpyDirection);
  if (p.count && !p.dst) return ret(hipErrorInvalidValue);
  return check_range(call, "destination", p.dst, p.count, true);
}

hipError_t check_copy(const CopyToSymbol& p, const char* call) {
  char* at = nullptr;
  if (hipError_t e = symbol_range(p.symbol, p.count, p.offset, &at)) return e;
  if (p.kind < hipMemcpyHostToHost || p.kind > hipMemcpyDefault) return ret(hipErrorInvalidMemcpyDirection);
  if (p.count && !p.src) return ret(hipErrorInvalidValue);
  return check_range(call, "source", p.src, p.count, false);
}

hipError_t check_memset(const hipMemsetParams& p, const char* call) {
  if (!p.dst || p.height == 0) return ret(hipErrorInvalidValue);
  if (p.elementSize != 1 && p.elementSize != 2 && p.elementSize != 4) return ret(hipErrorInvalidValue);
  size_t row = 0, span = 0;
  if (__builtin_mul_overflow(p.width, p.elementSize, &row)) return ret(hipErrorInvalidValue);
  if (p.height > 1 && p.pitch < row) return ret(hipErrorInvalidValue);
  if (__builtin_mul_overflow(p.pitch, p.height - 1, &span) || __builtin_add_overflow(span, row, &span)) return ret(hipErrorInvalidValue);
  return check_range(call, "destination", p.dst, span, true);
}

hipError_t run_copy(const Copy1D& p) {
  if (p.count) std::memmove(p.dst, p.src, p.count);
  return hipSuccess;
}

hipError_t run_copy(const CopyFromSymbol& p) {
  char* at = nullptr;
  if (hipError_t e = symbol_range(p.symbol, p.count, p.offset, &at)) return e;
  if (p.count) std::memmove(p.dst, at, p.count);
  return hipSuccess;
}

hipError_t run_copy(const CopyToSymbol& p) {
  char* at = nullptr;
  if (hipError_t e = symbol_range(p.symbol, p.count, p.offset, &at)) return e;
  if (p.count) std::memmove(at, p.src, p.count);
  return hipSuccess;
}

hipError_t run_memset(const hipMemsetParams& p) {
  for (size_t row = 0; row < p.height; ++row) {
    char* line = static_cast<char*>(p.dst) + row * p.pitch;
    switch (p.elementSize) {
      case 1: std::memset(line, static_cast<int>(p.value & 0xff), p.width); break;
      case 2: std::fill_n(reinterpret_cast<std::uint16_t*>(line), p.width, static_cast<std::uint16_t>(p.value)); break;
      default: std::fill_n(reinterpret_cast<std::uint32_t*>(line), p.width, static_cast<std::uint32_t>(p.value)); break;
    }
  }
  return hipSuccess;
}

}  // namespace gpuport::emu::hip

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

#if HIP_VERSION_MAJOR >= 6
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
#endif
