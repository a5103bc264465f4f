// Allocation of the HIP runtime API: device, managed and pinned host memory, pitched
// allocations, host registration, and what the runtime says about a pointer or its memory.
#include "emu/runtime/core/queues.h"

#include <cstring>

using namespace gpuport::emu::hip;
using gpuport::emu::AddressSpace;

hipError_t hipMalloc(void** p, size_t size) { return allocate_device(p, size, "hipMalloc"); }
hipError_t hipMallocManaged(void** p, size_t size, unsigned int flags) {
  if (flags != hipMemAttachGlobal && flags != hipMemAttachHost) return ret(hipErrorInvalidValue);
  return allocate_device(p, size, kManagedAllocation);
}
hipError_t hipExtMallocWithFlags(void** p, size_t size, unsigned int) { return hipMalloc(p, size); }
hipError_t hipHostMalloc(void** p, size_t size, unsigned int flags) {
  if (!p) return ret(hipErrorInvalidValue);
  return allocate_host(p, size, flags, "hipHostMalloc");
}
hipError_t hipMallocHost(void** p, size_t size) { return hipHostMalloc(p, size, 0); }
hipError_t hipHostAlloc(void** p, size_t size, unsigned int flags) { return hipHostMalloc(p, size, flags); }
hipError_t hipFree(void* p) {
  if (hipError_t e = check_unsafe_call()) return e;
  return release(p);
}
hipError_t hipHostFree(void* p) { return release_host(p); }
hipError_t hipFreeHost(void* p) { return hipHostFree(p); }
hipError_t hipMallocPitch(void** p, size_t* pitch, size_t width, size_t height) {
  if (!p || !pitch) return ret(hipErrorInvalidValue);
  if (width > kDeviceMemoryBytes) return ret(hipErrorOutOfMemory);
  *pitch = (width + 255) / 256 * 256;
  size_t bytes = 0;
  if (__builtin_mul_overflow(*pitch, height, &bytes)) return ret(hipErrorOutOfMemory);
  return hipMalloc(p, bytes);
}
hipError_t hipHostRegister(void* p, size_t size, unsigned int flags) {
  register_host(p, size, flags);
  return hipSuccess;
}
hipError_t hipHostUnregister(void* p) {
  unregister_host(p);
  return hipSuccess;
}
hipError_t hipHostGetDevicePointer(void** device, void* host, unsigned int) {
  *device = host;
  return hipSuccess;
}
hipError_t hipHostGetFlags(unsigned int* flags, void* p) {
  if (!flags) return ret(hipErrorInvalidValue);
  return host_flags_of(p, flags);
}
hipError_t hipMemGetInfo(size_t* free_bytes, size_t* total) {
  *total = kDeviceMemoryBytes;
  const size_t used = device_memory_in_use();
  *free_bytes = used < *total ? *total - used : 0;
  return hipSuccess;
}
hipError_t hipGetSymbolAddress(void** device, const void* symbol) {
  void* p = device_address_of(symbol, nullptr);
  if (!p) return ret(hipErrorInvalidSymbol);
  *device = p;
  return hipSuccess;
}
hipError_t hipGetSymbolSize(size_t* size, const void* symbol) {
  if (!device_address_of(symbol, size)) return ret(hipErrorInvalidSymbol);
  return hipSuccess;
}
hipError_t hipPointerGetAttributes(hipPointerAttribute_t* attributes, const void* ptr) {
  std::memset(attributes, 0, sizeof(*attributes));
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  const auto* r = rt.memory.find(reinterpret_cast<std::uint64_t>(ptr), 1);
  if (!r) {
    pointer_memory_type(*attributes) = hipMemoryTypeHost;
    return ret(hipErrorInvalidValue);
  }
  attributes->isManaged = r->name == kManagedAllocation;
  pointer_memory_type(*attributes) = attributes->isManaged               ? kManagedMemoryType
                                     : r->kind == AddressSpace::Kind::host ? hipMemoryTypeHost
                                                                           : hipMemoryTypeDevice;
  attributes->devicePointer = const_cast<void*>(ptr);
  attributes->hostPointer = r->kind == AddressSpace::Kind::host || attributes->isManaged ? const_cast<void*>(ptr) : nullptr;
  attributes->device = 0;
  return hipSuccess;
}
