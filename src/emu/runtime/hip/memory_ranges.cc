// What the HIP runtime API says about a pointer or a range of memory (managed-memory advice and
// prefetches, range attributes, address ranges, driver-style pointer attributes), over the core's
// (core/memory_ranges.cc).
#include "emu/runtime/core/memory_ranges.h"

using namespace gpuport::emu::hip;

hipError_t hipMemAdvise(const void* p, size_t count, hipMemoryAdvise advice, int device) {
  return advise(p, count, advice, device);
}

hipError_t hipMemPrefetchAsync(const void* p, size_t count, int device, hipStream_t stream) {
  return prefetch(p, count, device, stream);
}

hipError_t hipMemRangeGetAttribute(void* data, size_t size, hipMemRangeAttribute attribute, const void* p, size_t count) {
  return range_attribute_of(data, size, attribute, p, count);
}

hipError_t hipMemRangeGetAttributes(void** data, size_t* sizes, hipMemRangeAttribute* attributes, size_t n, const void* p, size_t count) {
  return range_attributes_of(data, sizes, attributes, n, p, count);
}

hipError_t hipStreamAttachMemAsync(hipStream_t stream, void* p, size_t length, unsigned int flags) {
  return attach_memory(stream, p, length, flags);
}

hipError_t hipMemGetAddressRange(hipDeviceptr_t* base, size_t* size, hipDeviceptr_t p) { return address_range(base, size, p); }

hipError_t hipMemPtrGetInfo(void* p, size_t* size) { return allocation_size(p, size); }

hipError_t hipMemAllocHost(void** p, size_t size) {
  if (!p) return ret(hipErrorInvalidValue);
  return allocate_host(p, size, 0, "hipMemAllocHost");
}

hipError_t hipPointerGetAttribute(void* data, hipPointer_attribute attribute, hipDeviceptr_t p) {
  return pointer_attribute(data, attribute, p);
}

hipError_t hipDrvPointerGetAttributes(unsigned int count, hipPointer_attribute* attributes, void** data, hipDeviceptr_t p) {
  if (!attributes || !data || count == 0) return ret(hipErrorInvalidValue);
  for (unsigned int i = 0; i < count; ++i)
    if (hipError_t e = hipPointerGetAttribute(data[i], attributes[i], p)) return e;
  return hipSuccess;
}
