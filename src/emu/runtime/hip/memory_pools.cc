// Stream-ordered allocation and memory pools of the HIP runtime API, over the core's pools
// (core/pools.h).
#include "emu/runtime/core/pools.h"

using namespace gpuport::emu::hip;

hipError_t hipMallocAsync(void** dev_ptr, size_t size, hipStream_t stream) {
  if (!dev_ptr || size == 0) return ret(hipErrorInvalidValue);
  ihipMemPoolHandle_t* pool;
  {
    std::lock_guard lock(runtime().mutex);
    pool = pool_registry().current_pool;
  }
  return allocate_async(dev_ptr, size, pool, stream);
}
hipError_t hipMallocFromPoolAsync(void** dev_ptr, size_t size, hipMemPool_t pool, hipStream_t stream) {
  if (!dev_ptr || size == 0) return ret(hipErrorInvalidValue);
  {
    std::lock_guard lock(runtime().mutex);
    if (!valid(pool)) return ret(hipErrorInvalidValue);
  }
  return allocate_async(dev_ptr, size, pool, stream);
}
hipError_t hipFreeAsync(void* dev_ptr, hipStream_t stream) { return free_async(dev_ptr, stream); }

hipError_t hipMemPoolCreate(hipMemPool_t* pool, const hipMemPoolProps* props) { return create_pool(pool, props); }
hipError_t hipMemPoolDestroy(hipMemPool_t pool) { return destroy_pool(pool); }
hipError_t hipMemPoolTrimTo(hipMemPool_t pool, size_t keep) {
  std::lock_guard lock(runtime().mutex);
  if (!valid(pool)) return ret(hipErrorInvalidValue);
  trim(*pool, keep);
  return hipSuccess;
}
hipError_t hipMemPoolSetAttribute(hipMemPool_t pool, hipMemPoolAttr attr, void* value) {
  std::lock_guard lock(runtime().mutex);
  if (!valid(pool) || !value) return ret(hipErrorInvalidValue);
  const int flag = *static_cast<const int*>(value);
  const std::uint64_t bytes = *static_cast<const std::uint64_t*>(value);
  switch (attr) {
    case hipMemPoolReuseFollowEventDependencies: pool->reuse_follow_event_dependencies = flag != 0; break;
    case hipMemPoolReuseAllowOpportunistic: pool->reuse_allow_opportunistic = flag != 0; break;
    case hipMemPoolReuseAllowInternalDependencies: pool->reuse_allow_internal_dependencies = flag != 0; break;
    case hipMemPoolAttrReleaseThreshold: pool->release_threshold = bytes; break;
    // A high watermark can only be reset (to what is reserved or used now).
    case hipMemPoolAttrReservedMemHigh:
      if (bytes != 0) return ret(hipErrorInvalidValue);
      pool->reserved_high = pool->used + pool->held;
      break;
    case hipMemPoolAttrUsedMemHigh:
      if (bytes != 0) return ret(hipErrorInvalidValue);
      pool->used_high = pool->used;
      break;
    default: return ret(hipErrorInvalidValue);  // the current amounts are read-only
  }
  return hipSuccess;
}
hipError_t hipMemPoolGetAttribute(hipMemPool_t pool, hipMemPoolAttr attr, void* value) {
  std::lock_guard lock(runtime().mutex);
  if (!valid(pool) || !value) return ret(hipErrorInvalidValue);
  auto* flag = static_cast<int*>(value);
  auto* bytes = static_cast<std::uint64_t*>(value);
  switch (attr) {
    case hipMemPoolReuseFollowEventDependencies: *flag = pool->reuse_follow_event_dependencies; break;
    case hipMemPoolReuseAllowOpportunistic: *flag = pool->reuse_allow_opportunistic; break;
    case hipMemPoolReuseAllowInternalDependencies: *flag = pool->reuse_allow_internal_dependencies; break;
    case hipMemPoolAttrReleaseThreshold: *bytes = pool->release_threshold; break;
    case hipMemPoolAttrReservedMemCurrent: *bytes = pool->used + pool->held; break;
    case hipMemPoolAttrReservedMemHigh: *bytes = pool->reserved_high; break;
    case hipMemPoolAttrUsedMemCurrent: *bytes = pool->used; break;
    case hipMemPoolAttrUsedMemHigh: *bytes = pool->used_high; break;
    default: return ret(hipErrorInvalidValue);
  }
  return hipSuccess;
}
// One device: the pool's memory is read-write from it, and there is no other device to grant.
hipError_t hipMemPoolSetAccess(hipMemPool_t pool, const hipMemAccessDesc* list, size_t count) {
  std::lock_guard lock(runtime().mutex);
  if (!valid(pool) || (count && !list)) return ret(hipErrorInvalidValue);
  for (size_t i = 0; i < count; ++i)
    if (list[i].location.type != hipMemLocationTypeDevice || list[i].location.id != 0 || list[i].flags != hipMemAccessFlagsProtReadWrite)
      return ret(hipErrorInvalidValue);
  return hipSuccess;
}
hipError_t hipMemPoolGetAccess(hipMemAccessFlags* flags, hipMemPool_t pool, hipMemLocation* location) {
  std::lock_guard lock(runtime().mutex);
  if (!flags || !valid(pool) || !location || location->type != hipMemLocationTypeDevice || location->id != 0)
    return ret(hipErrorInvalidValue);
  *flags = hipMemAccessFlagsProtReadWrite;
  return hipSuccess;
}
hipError_t hipDeviceGetDefaultMemPool(hipMemPool_t* pool, int device) {
  if (!pool) return ret(hipErrorInvalidValue);
  if (device != 0) return ret(hipErrorInvalidDevice);
  *pool = &pool_registry().default_pool;
  return hipSuccess;
}
hipError_t hipDeviceSetMemPool(int device, hipMemPool_t pool) {
  if (device != 0) return ret(hipErrorInvalidDevice);
  std::lock_guard lock(runtime().mutex);
  if (!valid(pool)) return ret(hipErrorInvalidValue);
  pool_registry().current_pool = pool;
  return hipSuccess;
}
hipError_t hipDeviceGetMemPool(hipMemPool_t* pool, int device) {
  if (!pool) return ret(hipErrorInvalidValue);
  if (device != 0) return ret(hipErrorInvalidDevice);
  std::lock_guard lock(runtime().mutex);
  *pool = pool_registry().current_pool;
  return hipSuccess;
}

// ---- sharing pool_registry().pools (within this process: one process runs one emulated device) ---------------
hipError_t hipMemPoolExportToShareableHandle(void* handle, hipMemPool_t pool, hipMemAllocationHandleType type, unsigned int flags) {
  return export_pool(handle, pool, type, flags);
}
hipError_t hipMemPoolImportFromShareableHandle(hipMemPool_t* pool, void* handle, hipMemAllocationHandleType type, unsigned int flags) {
  return import_pool(pool, handle, type, flags);
}
hipError_t hipMemPoolExportPointer(hipMemPoolPtrExportData* data, void* dev_ptr) { return export_pool_pointer(data, dev_ptr); }
hipError_t hipMemPoolImportPointer(void** dev_ptr, hipMemPool_t pool, hipMemPoolPtrExportData* data) {
  return import_pool_pointer(dev_ptr, pool, data);
}
