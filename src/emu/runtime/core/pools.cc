// Stream-ordered allocation and memory pools in the runtime's core. Every block comes
// from allocate() like hipMalloc's, so kernels' accesses to it are checked, and a freed block is
// released at once (never handed out again while the program may still hold its address), so a
// use after hipFreeAsync is reported. A pool keeps the accounting the attributes report: bytes in
// use, bytes it holds after frees (up to its release threshold, until trimmed), high watermarks.
// Pools can be exported and imported within the process (a file descriptor names one).
#include "emu/runtime/core/pools.h"

#include <sys/stat.h>

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

}  // namespace gpuport::emu::hip
