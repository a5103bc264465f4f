// Memory pools in the runtime's core: the pool handles, the registry of live pools (the default
// one, the current one, those exported by file), the accounting stream-ordered allocation keeps,
// and the release of what pools hold over their threshold when the program synchronizes.
#pragma once

#include <sys/types.h>

#include "emu/runtime/core/queues.h"

struct ihipMemPoolHandle_t {
  hipMemPoolProps props{};
  std::uint64_t release_threshold = 0;
  int reuse_follow_event_dependencies = 1, reuse_allow_opportunistic = 1, reuse_allow_internal_dependencies = 1;
  std::uint64_t used = 0, held = 0;  // reserved = used + held
  std::uint64_t used_high = 0, reserved_high = 0;
  std::map<void*, size_t> blocks;  // live allocations from this pool
};

namespace gpuport::emu::hip {

// The pools, under the runtime's lock.
struct PoolRegistry {
  ihipMemPoolHandle_t default_pool;
  ihipMemPoolHandle_t* current_pool = &default_pool;
  std::set<ihipMemPoolHandle_t*> pools{&default_pool};
  std::map<std::pair<dev_t, ino_t>, ihipMemPoolHandle_t*> exported;  // a shareable handle's file -> pool
};
PoolRegistry& pool_registry();

// The 64 bytes of hipMemPoolPtrExportData.
struct PointerExport {
  char magic[8];
  std::uint64_t pid;
  void* pointer;
  ihipMemPoolHandle_t* pool;
};
static_assert(sizeof(PointerExport) <= sizeof(hipMemPoolPtrExportData));
inline constexpr char kExportMagic[8] = "gpuport";

// Whether `pool` is live; what it holds beyond `keep` bytes given back. Lock held.
bool valid(ihipMemPoolHandle_t* pool);
void trim(ihipMemPoolHandle_t& p, std::uint64_t keep);
// Allocates from `pool` when the stream gets to it (which is now: it runs when issued).
hipError_t allocate_async(void** dev_ptr, size_t size, ihipMemPoolHandle_t* pool, hipStream_t stream);

// Frees a block in stream order: its pool takes its bytes back into what it holds, and the block is
// released (a later access is a use after free).
hipError_t free_async(void* dev_ptr, hipStream_t stream);
// Pools made by the program (pinned device memory, POSIX file descriptors as their only shareable
// handle) and destroyed (not the default pool; blocks still allocated from it stay usable until
// freed).
hipError_t create_pool(hipMemPool_t* pool, const hipMemPoolProps* props);
hipError_t destroy_pool(hipMemPool_t pool);
// Sharing within the process: a pool exported as a file descriptor, imported from one; a pointer
// exported from a pool and imported into it.
hipError_t export_pool(void* handle, hipMemPool_t pool, hipMemAllocationHandleType type, unsigned int flags);
hipError_t import_pool(hipMemPool_t* pool, void* handle, hipMemAllocationHandleType type, unsigned int flags);
hipError_t export_pool_pointer(hipMemPoolPtrExportData* data, void* dev_ptr);
hipError_t import_pool_pointer(void** dev_ptr, hipMemPool_t pool, hipMemPoolPtrExportData* data);

}  // namespace gpuport::emu::hip
