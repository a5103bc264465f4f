// Stream-ordered allocation and memory pools in the runtime's core. Every block comes
// from allocate() like hipMalloc's, so kernels' accesses to it are checked, and a freed block is
// released at once (never handed out again while the program may still hold its address), so a
// use after hipFreeAsync is reported. A pool keeps the accounting the attributes report: bytes in
// use, bytes it holds after frees (up to its release threshold, until trimmed), high watermarks.
// Pools can be exported and imported within the process (a file descriptor names one).
#include "emu/runtime/core/pools.h"

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>

namespace gpuport::emu::hip {

PoolRegistry& pool_registry() {
  static auto* r = new PoolRegistry();
  return *r;
}

bool valid(ihipMemPoolHandle_t* pool) { return pool && pool_registry().pools.count(pool); }

void trim(ihipMemPoolHandle_t& p, std::uint64_t keep) {
  if (p.used + p.held > keep) p.held = keep > p.used ? std::min(p.held, keep - p.used) : 0;
}

hipError_t allocate_async(void** dev_ptr, size_t size, ihipMemPoolHandle_t* pool, hipStream_t stream) {
  return submit(stream, Uncapturable{[=] {
                  void* p = allocate(size, AddressSpace::Kind::device, "hipMallocAsync");
                  if (!p) return ret(hipErrorOutOfMemory);
                  std::lock_guard lock(runtime().mutex);
                  pool->blocks[p] = size;
                  pool->used += size;
                  pool->held -= std::min<std::uint64_t>(pool->held, size);
                  pool->used_high = std::max(pool->used_high, pool->used);
                  pool->reserved_high = std::max(pool->reserved_high, pool->used + pool->held);
                  *dev_ptr = p;
                  return hipSuccess;
                }});
}

void release_pools_over_threshold() {
  std::lock_guard lock(runtime().mutex);
  for (ihipMemPoolHandle_t* p : pool_registry().pools) trim(*p, p->release_threshold);
}

hipError_t free_async(void* dev_ptr, hipStream_t stream) {
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

hipError_t create_pool(hipMemPool_t* pool, const hipMemPoolProps* props) {
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

hipError_t destroy_pool(hipMemPool_t pool) {
  std::lock_guard lock(runtime().mutex);
  if (!valid(pool) || pool == &pool_registry().default_pool) return ret(hipErrorInvalidValue);
  // Blocks still allocated from it stay usable until freed (hipFreeAsync finds no pool for them).
  pool_registry().pools.erase(pool);
  std::erase_if(pool_registry().exported, [&](const auto& e) { return e.second == pool; });
  if (pool_registry().current_pool == pool) pool_registry().current_pool = &pool_registry().default_pool;
  delete pool;
  return hipSuccess;
}

hipError_t export_pool(void* handle, hipMemPool_t pool, hipMemAllocationHandleType type, unsigned int flags) {
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

hipError_t import_pool(hipMemPool_t* pool, void* handle, hipMemAllocationHandleType type, unsigned int flags) {
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

hipError_t export_pool_pointer(hipMemPoolPtrExportData* data, void* dev_ptr) {
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

hipError_t import_pool_pointer(void** dev_ptr, hipMemPool_t pool, hipMemPoolPtrExportData* data) {
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

}  // namespace gpuport::emu::hip
