// Pitched (2D and 3D) linear memory: hipMalloc3D, hipMemAllocPitch, 3D memsets, and the 3D and
// parameter-block copies (hipMemcpy3D, hipMemcpyParam2D, hipDrvMemcpy3D) over linear memory, as
// operations through submit(). Array operands (hipArray) are copied by the core's arrays
// (core/arrays.cc: copy_3d_with_arrays, copy_param_2d_with_arrays); the driver-style 3D copy
// (hipDrvMemcpy3D) still refuses them with hipErrorNotSupported.
#include "emu/runtime/core/queues.h"
#include "emu/runtime/core/images.h"

#include <cstring>

using namespace gpuport::emu::hip;
using gpuport::emu::AddressSpace;

namespace {

hipError_t copy_3d(const char* call, const hipMemcpy3DParms* p, hipStream_t stream, bool sync) {
  if (!p) return ret(hipErrorInvalidValue);
  if (hipError_t e = check_copy(*p, call)) return e;
  if (sync)
    if (hipError_t e = check_unsafe_call()) return e;
  return submit(stream, *p);
}

// One side of a driver-style copy: where its memory type says the memory is.
hipError_t driver_side(hipMemoryType type, const void* host, hipDeviceptr_t device, hipArray* array, const void** base) {
  switch (type) {
    case hipMemoryTypeHost: *base = host; break;
    case hipMemoryTypeDevice:
    case hipMemoryTypeUnified: *base = device; break;
    case hipMemoryTypeArray: return array ? ret(hipErrorNotSupported) : ret(hipErrorInvalidValue);  // the texture family's
    default: return ret(hipErrorInvalidValue);
  }
  return *base ? hipSuccess : ret(hipErrorInvalidValue);
}

hipError_t param_2d(const char* call, const hip_Memcpy2D* c, hipStream_t stream, bool sync) {
  if (!c) return ret(hipErrorInvalidValue);
  if (c->srcMemoryType == hipMemoryTypeArray || c->dstMemoryType == hipMemoryTypeArray) return copy_param_2d_with_arrays(c);
  const void *src, *dst;
  if (hipError_t e = driver_side(c->srcMemoryType, c->srcHost, c->srcDevice, c->srcArray, &src)) return e;
  if (hipError_t e = driver_side(c->dstMemoryType, c->dstHost, c->dstDevice, c->dstArray, &dst)) return e;
  hipMemcpy3DParms p{};
  p.srcPtr = make_hipPitchedPtr(const_cast<void*>(src), c->srcPitch, c->WidthInBytes, c->srcY + c->Height);
  p.srcPos = make_hipPos(c->srcXInBytes, c->srcY, 0);
  p.dstPtr = make_hipPitchedPtr(const_cast<void*>(dst), c->dstPitch, c->WidthInBytes, c->dstY + c->Height);
  p.dstPos = make_hipPos(c->dstXInBytes, c->dstY, 0);
  p.extent = make_hipExtent(c->WidthInBytes, c->Height, 1);
  p.kind = hipMemcpyDefault;
  return copy_3d(call, &p, stream, sync);
}

hipError_t driver_3d(const char* call, const HIP_MEMCPY3D* c, hipStream_t stream, bool sync) {
  if (!c || c->srcLOD || c->dstLOD) return ret(hipErrorInvalidValue);
  const void *src, *dst;
  if (hipError_t e = driver_side(c->srcMemoryType, c->srcHost, c->srcDevice, c->srcArray, &src)) return e;
  if (hipError_t e = driver_side(c->dstMemoryType, c->dstHost, c->dstDevice, c->dstArray, &dst)) return e;
  hipMemcpy3DParms p{};
  p.srcPtr = make_hipPitchedPtr(const_cast<void*>(src), c->srcPitch, c->WidthInBytes, c->srcHeight);
  p.srcPos = make_hipPos(c->srcXInBytes, c->srcY, c->srcZ);
  p.dstPtr = make_hipPitchedPtr(const_cast<void*>(dst), c->dstPitch, c->WidthInBytes, c->dstHeight);
  p.dstPos = make_hipPos(c->dstXInBytes, c->dstY, c->dstZ);
  p.extent = make_hipExtent(c->WidthInBytes, c->Height, c->Depth);
  p.kind = hipMemcpyDefault;
  return copy_3d(call, &p, stream, sync);
}

// A 3D memset is one 2D memset when its slices lie back to back, else one per slice (in order).
hipError_t memset_3d(const char* call, hipPitchedPtr p, int value, hipExtent e, hipStream_t stream, bool sync) {
  if (!p.ptr) return ret(hipErrorInvalidValue);
  if (e.width == 0 || e.height == 0 || e.depth == 0) return hipSuccess;
  if (e.width > p.pitch) return ret(hipErrorInvalidPitchValue);
  if (e.depth > 1 && e.height > p.ysize) return ret(hipErrorInvalidValue);
  if (sync)
    if (hipError_t err = check_unsafe_call()) return err;
  hipMemsetParams m{};
  m.dst = p.ptr;
  m.elementSize = 1;
  m.width = e.width;
  m.pitch = p.pitch;
  m.value = static_cast<unsigned char>(value);
  if (e.depth == 1 || e.height == p.ysize) {
    m.height = e.height * e.depth;
    if (hipError_t err = check_memset(m, call)) return err;
    return submit(stream, m);
  }
  m.height = e.height;
  for (size_t z = 0; z < e.depth; ++z) {
    m.dst = static_cast<char*>(p.ptr) + z * p.pitch * p.ysize;
    if (hipError_t err = check_memset(m, call)) return err;
    if (hipError_t err = submit(stream, m)) return err;
  }
  return hipSuccess;
}

size_t pitch_for(size_t width) { return (width + 255) / 256 * 256; }

}  // namespace

hipError_t hipMemcpy3D(const hipMemcpy3DParms* p) { return copy_3d(__func__, p, nullptr, true); }
hipError_t hipMemcpy3D_spt(const hipMemcpy3DParms* p) { return copy_3d(__func__, p, hipStreamPerThread, true); }
hipError_t hipMemcpy3DAsync(const hipMemcpy3DParms* p, hipStream_t stream) { return copy_3d(__func__, p, stream, false); }
hipError_t hipMemcpyParam2D(const hip_Memcpy2D* c) { return param_2d(__func__, c, nullptr, true); }
hipError_t hipMemcpyParam2DAsync(const hip_Memcpy2D* c, hipStream_t stream) { return param_2d(__func__, c, stream, false); }
hipError_t hipDrvMemcpy2DUnaligned(const hip_Memcpy2D* c) { return param_2d(__func__, c, nullptr, true); }
hipError_t hipDrvMemcpy3D(const HIP_MEMCPY3D* c) { return driver_3d(__func__, c, nullptr, true); }
hipError_t hipDrvMemcpy3DAsync(const HIP_MEMCPY3D* c, hipStream_t stream) { return driver_3d(__func__, c, stream, false); }
hipError_t hipMemset3D(hipPitchedPtr p, int value, hipExtent e) { return memset_3d(__func__, p, value, e, nullptr, true); }
hipError_t hipMemset3D_spt(hipPitchedPtr p, int value, hipExtent e) { return memset_3d(__func__, p, value, e, hipStreamPerThread, true); }
hipError_t hipMemset3DAsync(hipPitchedPtr p, int value, hipExtent e, hipStream_t stream) { return memset_3d(__func__, p, value, e, stream, false); }

hipError_t hipMalloc3D(hipPitchedPtr* p, hipExtent e) {
  if (!p) return ret(hipErrorInvalidValue);
  if (hipError_t err = check_unsafe_call()) return err;
  const size_t pitch = pitch_for(e.width);
  *p = make_hipPitchedPtr(nullptr, pitch, e.width, e.height);
  if (e.width == 0 || e.height == 0 || e.depth == 0) return hipSuccess;
  size_t bytes = 0;
  if (e.width > kDeviceMemoryBytes || __builtin_mul_overflow(pitch, e.height, &bytes) || __builtin_mul_overflow(bytes, e.depth, &bytes))
    return ret(hipErrorOutOfMemory);
  p->ptr = allocate(bytes, AddressSpace::Kind::device, "hipMalloc3D");
  return p->ptr ? hipSuccess : ret(hipErrorOutOfMemory);
}

hipError_t hipMemAllocPitch(hipDeviceptr_t* p, size_t* pitch, size_t width, size_t height, unsigned int element_size) {
  if (!p || !pitch || width == 0 || height == 0 || (element_size != 4 && element_size != 8 && element_size != 16))
    return ret(hipErrorInvalidValue);
  if (hipError_t err = check_unsafe_call()) return err;
  *pitch = pitch_for(width);
  size_t bytes = 0;
  if (width > kDeviceMemoryBytes || __builtin_mul_overflow(*pitch, height, &bytes)) return ret(hipErrorOutOfMemory);
  *p = allocate(bytes, AddressSpace::Kind::device, "hipMemAllocPitch");
  return *p ? hipSuccess : ret(hipErrorOutOfMemory);
}
