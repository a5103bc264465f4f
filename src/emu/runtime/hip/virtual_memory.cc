// Virtual memory management of the HIP runtime API (hipMemCreate, hipMemAddressReserve, hipMemMap,
// ...), over the core's (core/virtual_memory.cc, which says how allocations, reservations and
// mappings are made).
#include "emu/runtime/core/virtual_memory.h"

using namespace gpuport::emu::hip;

hipError_t hipMemGetAllocationGranularity(size_t* granularity, const hipMemAllocationProp* prop, hipMemAllocationGranularity_flags option) {
  return allocation_granularity(granularity, prop, option);
}

hipError_t hipMemCreate(hipMemGenericAllocationHandle_t* handle, size_t size, const hipMemAllocationProp* prop, unsigned long long flags) {
  return create_physical(handle, size, prop, flags);
}

hipError_t hipMemRelease(hipMemGenericAllocationHandle_t handle) { return release_physical(handle); }

hipError_t hipMemGetAllocationPropertiesFromHandle(hipMemAllocationProp* prop, hipMemGenericAllocationHandle_t handle) {
  return physical_properties(prop, handle);
}

hipError_t hipMemAddressReserve(void** ptr, size_t size, size_t alignment, void* addr, unsigned long long flags) {
  return reserve_addresses(ptr, size, alignment, addr, flags);
}

hipError_t hipMemAddressFree(void* ptr, size_t size) { return free_addresses(ptr, size); }

hipError_t hipMemMap(void* ptr, size_t size, size_t offset, hipMemGenericAllocationHandle_t handle, unsigned long long flags) {
  return map_physical(ptr, size, offset, handle, flags);
}

hipError_t hipMemUnmap(void* ptr, size_t size) { return unmap_physical(ptr, size); }

hipError_t hipMemSetAccess(void* ptr, size_t size, const hipMemAccessDesc* desc, size_t count) {
  return set_access(ptr, size, desc, count);
}

hipError_t hipMemGetAccess(unsigned long long* flags, const hipMemLocation* location, void* ptr) {
  return access_of(flags, location, ptr);
}

hipError_t hipMemRetainAllocationHandle(hipMemGenericAllocationHandle_t* handle, void* addr) {
  return retain_physical(handle, addr);
}

hipError_t hipMemExportToShareableHandle(void* shareable, hipMemGenericAllocationHandle_t handle, hipMemAllocationHandleType type,
                                         unsigned long long flags) {
  return export_physical(shareable, handle, type, flags);
}

hipError_t hipMemImportFromShareableHandle(hipMemGenericAllocationHandle_t* handle, void* os_handle, hipMemAllocationHandleType type) {
  return import_physical(handle, os_handle, type);
}
