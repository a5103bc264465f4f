// Stream-ordered allocation and memory pools of the HIP runtime API, over the core's pools
// (core/pools.h).
#include "emu/runtime/core/pools.h"

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>

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
hipError_t hipFreeAsync(void* dev_ptr, hipStream_t stream) {
  if (!dev_ptr) return ret(hipErrorInvalidValue);
  {
    std::lock_guard lock(runtime().mutex);
    if (!runtime().allocations.count(reinterpret_cast<std::uintptr_t>(dev_ptr))) return ret(hipErrorInvalidValue);
  }
  return submit(stream, Uncapturable{[dev_ptr] {
                  {
                    std::lock_guard lock(runtime().mutex);
                    for (ihipMemPoolHandle_t* p : pool_registry().pools)
                      if (auto it = p->blocks.find(dev_ptr); it != p->blocks.end()) {
                        p->used -= it->second;
                        p->held += it->second;
                        p->blocks.erase(it);
                      }
                  }
                  return release(dev_ptr);  // marked freed: a later access is a use after free
                }});
}

hipError_t hipMemPoolCreate(hipMemPool_t* pool, const hipMemPoolProps* props) {
  if (!pool || !props || props->allocType != hipMemAllocationTypePinned) return ret(hipErrorInvalidValue);
  if (props->location.type != hipMemLocationTypeDevice || props->location.id != 0) return ret(hipErrorInvalidValue);
  if (props->handleTypes & ~unsigned(hipMemHandleTypePosixFileDescriptor)) return ret(hipErrorNotSupported);  // Windows handles
  auto* p = new ihipMemPoolHandle_t;
  p->props = *props;
  std::lock_guard lock(runtime().mutex);
  pool_registry().pools.insert(p);
  *pool = p;
  return hipSuccess;
}
hipError_t hipMemPoolDestroy(hipMemPool_t pool) {
  std::lock_guard lock(runtime().mutex);
  if (!valid(pool) || pool == &pool_registry().default_pool) return ret(hipErrorInvalidValue);
  // Blocks still allocated from it stay usable until freed (hipFreeAsync finds no pool for them).
  pool_registry().pools.erase(pool);
  std::erase_if(pool_registry().exported, [&](const auto& e) { return e.second == pool; });
  if (pool_registry().current_pool == pool) pool_registry().current_pool = &pool_registry().default_pool;
  delete pool;
  return hipSuccess;
}
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
  std::lock_guard lock(runtime().mutex);
  if (!handle || !valid(pool) || flags != 0 || type != hipMemHandleTypePosixFileDescriptor ||
      !(pool->props.handleTypes & hipMemHandleTypePosixFileDescriptor))
    return ret(hipErrorInvalidValue);
  // A descriptor of a file of our own names the pool; its identity (device, inode) survives dup().
  const int fd = memfd_create("gpuport-mempool", MFD_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) return ret(hipErrorOutOfMemory);
  pool_registry().exported[{st.st_dev, st.st_ino}] = pool;
  *static_cast<int*>(handle) = fd;
  return hipSuccess;
}
hipError_t hipMemPoolImportFromShareableHandle(hipMemPool_t* pool, void* handle, hipMemAllocationHandleType type, unsigned int flags) {
  if (!pool || flags != 0 || type != hipMemHandleTypePosixFileDescriptor) return ret(hipErrorInvalidValue);
  const int fd = static_cast<int>(reinterpret_cast<std::intptr_t>(handle));  // the descriptor, passed by value
  struct stat st;
  if (fstat(fd, &st) != 0) return ret(hipErrorInvalidValue);
  std::lock_guard lock(runtime().mutex);
  auto it = pool_registry().exported.find({st.st_dev, st.st_ino});
  if (it == pool_registry().exported.end()) {
    std::fprintf(stderr, "gpuport run: hipMemPoolImportFromShareableHandle: the handle names no memory pool of this process "
                         "(each process runs its own emulated device; another process's memory cannot be mapped)\n");
    return ret(hipErrorInvalidValue);
  }
  *pool = it->second;  // the same process: the pool itself
  return hipSuccess;
}
hipError_t hipMemPoolExportPointer(hipMemPoolPtrExportData* data, void* dev_ptr) {
  std::lock_guard lock(runtime().mutex);
  if (!data || !dev_ptr) return ret(hipErrorInvalidValue);
  for (ihipMemPoolHandle_t* p : pool_registry().pools)
    if (p->blocks.count(dev_ptr)) {
      if (!(p->props.handleTypes & hipMemHandleTypePosixFileDescriptor)) return ret(hipErrorInvalidValue);
      PointerExport e{};
      std::memcpy(e.magic, kExportMagic, sizeof(e.magic));
      e.pid = static_cast<std::uint64_t>(getpid());
      e.pointer = dev_ptr;
      e.pool = p;
      std::memset(data, 0, sizeof(*data));
      std::memcpy(data, &e, sizeof(e));
      return hipSuccess;
    }
  return ret(hipErrorInvalidValue);
}
hipError_t hipMemPoolImportPointer(void** dev_ptr, hipMemPool_t pool, hipMemPoolPtrExportData* data) {
  if (!dev_ptr || !data) return ret(hipErrorInvalidValue);
  PointerExport e;
  std::memcpy(&e, data, sizeof(e));
  if (std::memcmp(e.magic, kExportMagic, sizeof(e.magic)) != 0) return ret(hipErrorInvalidValue);
  if (e.pid != static_cast<std::uint64_t>(getpid())) {
    std::fprintf(stderr, "gpuport run: hipMemPoolImportPointer: the pointer was pool_registry().exported by process %llu; each process runs its "
                         "own emulated device, so another process's memory cannot be mapped\n",
                 static_cast<unsigned long long>(e.pid));
    return ret(hipErrorNotSupported);
  }
  std::lock_guard lock(runtime().mutex);
  if (!valid(pool) || pool != e.pool || !pool->blocks.count(e.pointer)) return ret(hipErrorInvalidValue);
  *dev_ptr = e.pointer;
  return hipSuccess;
}
