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

}  // namespace gpuport::emu::hip
