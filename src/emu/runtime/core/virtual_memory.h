// Virtual memory in the runtime's core (core/virtual_memory.cc): physical allocations, reservations, mappings and their access, and sharing by file descriptor, as the hipMem* functions of the same meaning do.
#pragma once

#include "emu/runtime/core/queues.h"

namespace gpuport::emu::hip {

hipError_t allocation_granularity(size_t* granularity, const hipMemAllocationProp* prop, hipMemAllocationGranularity_flags option);
hipError_t create_physical(hipMemGenericAllocationHandle_t* handle, size_t size, const hipMemAllocationProp* prop, unsigned long long flags);
hipError_t release_physical(hipMemGenericAllocationHandle_t handle);
hipError_t physical_properties(hipMemAllocationProp* prop, hipMemGenericAllocationHandle_t handle);
hipError_t reserve_addresses(void** ptr, size_t size, size_t alignment, void* addr, unsigned long long flags);
hipError_t free_addresses(void* ptr, size_t size);
hipError_t map_physical(void* ptr, size_t size, size_t offset, hipMemGenericAllocationHandle_t handle, unsigned long long flags);
hipError_t unmap_physical(void* ptr, size_t size);
hipError_t set_access(void* ptr, size_t size, const hipMemAccessDesc* desc, size_t count);
hipError_t access_of(unsigned long long* flags, const hipMemLocation* location, void* ptr);
hipError_t retain_physical(hipMemGenericAllocationHandle_t* handle, void* addr);
hipError_t export_physical(void* shareable, hipMemGenericAllocationHandle_t handle, hipMemAllocationHandleType type, unsigned long long flags);
hipError_t import_physical(hipMemGenericAllocationHandle_t* handle, void* os_handle, hipMemAllocationHandleType type);

}  // namespace gpuport::emu::hip
