// Pointers and ranges of memory in the runtime's core (core/memory_ranges.cc).
#pragma once

#include "emu/runtime/core/queues.h"

namespace gpuport::emu::hip {

// Records advice for the managed pages of [p, p + count).
hipError_t advise(const void* p, size_t count, hipMemoryAdvise advice, int device);
// Records, in stream order, where the managed pages of [p, p + count) were prefetched to.
hipError_t prefetch(const void* p, size_t count, int device, hipStream_t stream);
// One attribute over every managed page of [p, p + count).
hipError_t range_attribute_of(void* data, size_t size, hipMemRangeAttribute attribute, const void* p, size_t count);
// Several attributes, each as range_attribute_of gives it.
hipError_t range_attributes_of(void** data, size_t* sizes, hipMemRangeAttribute* attributes, size_t n, const void* p, size_t count);
// Attaches a whole managed allocation to a stream (no effect beyond its place in order).
hipError_t attach_memory(hipStream_t stream, void* p, size_t length, unsigned int flags);
// The allocation `p` lies in: its base and size.
hipError_t address_range(hipDeviceptr_t* base, size_t* size, hipDeviceptr_t p);
// The size of the allocation `p` lies in.
hipError_t allocation_size(void* p, size_t* size);
// One driver-style attribute of the memory `p` points to, written at its width.
hipError_t pointer_attribute(void* data, hipPointer_attribute attribute, hipDeviceptr_t p);

}  // namespace gpuport::emu::hip
