// Inter-process handles in the runtime's core, within one process: a memory handle
// names an allocation (and the offset of the pointer it was made from), an event handle an
// event's shared state. Opened in the process that made it, a handle maps to the same memory or
// event; a handle from another process is refused with a message, since each process runs its
// own emulated device and cannot reach another's memory. (HIP documents that an event handle
// opened in the process that made it fails with hipErrorInvalidContext; here the one process is
// the only place a handle can be used, so it opens, like a memory handle.)
#include "emu/runtime/core/ipc.h"

#include <unistd.h>

#include <cstring>

namespace gpuport::emu::hip {
namespace {

constexpr char kMemoryMagic[8] = "gpumem", kEventMagic[8] = "gpuevt";

// The 64 bytes of hipIpcMemHandle_t.
struct MemoryHandle {
  char magic[8];
  std::uint64_t pid;
  std::uint64_t base, size, offset;
};
static_assert(sizeof(MemoryHandle) <= sizeof(hipIpcMemHandle_t));

// The 64 bytes of hipIpcEventHandle_t.
struct EventHandle {
  char magic[8];
  std::uint64_t pid;
  std::uint64_t id;
};
static_assert(sizeof(EventHandle) <= sizeof(hipIpcEventHandle_t));

std::map<void*, int> opened;  // pointers hipIpcOpenMemHandle returned, and how often
std::map<std::uint64_t, std::weak_ptr<EventState>> shared_events;
std::uint64_t next_event_id = 1;

hipError_t from_other_process(const char* what, std::uint64_t pid, hipError_t e) {
  std::fprintf(stderr, "gpuport run: %s: the handle comes from process %llu; each process runs its own emulated device, so "
                       "another process's memory and events cannot be reached\n",
               what, static_cast<unsigned long long>(pid));
  return ret(e);
}

}  // namespace
hipError_t export_memory(hipIpcMemHandle_t* handle, void* dev_ptr) {
  if (!handle || !dev_ptr) return ret(hipErrorInvalidValue);
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  const auto address = reinterpret_cast<std::uintptr_t>(dev_ptr);
  auto it = rt.allocations.upper_bound(address);
  if (it == rt.allocations.begin()) return ret(hipErrorInvalidHandle);
  --it;
  if (address >= it->first + std::max<size_t>(it->second, 1)) return ret(hipErrorInvalidHandle);
  const auto* region = rt.memory.find(it->first, 1);
  if (!region || region->kind != gpuport::emu::AddressSpace::Kind::device) return ret(hipErrorInvalidHandle);  // device memory only
  MemoryHandle h{};
  std::memcpy(h.magic, kMemoryMagic, sizeof(h.magic));
  h.pid = static_cast<std::uint64_t>(getpid());
  h.base = it->first;
  h.size = it->second;
  h.offset = address - it->first;
  std::memset(handle, 0, sizeof(*handle));
  std::memcpy(handle, &h, sizeof(h));
  return hipSuccess;
}

hipError_t open_memory(void** dev_ptr, hipIpcMemHandle_t handle, unsigned int flags) {
  if (!dev_ptr || flags != hipIpcMemLazyEnablePeerAccess) return ret(hipErrorInvalidValue);
  MemoryHandle h;
  std::memcpy(&h, &handle, sizeof(h));
  if (std::memcmp(h.magic, kMemoryMagic, sizeof(h.magic)) != 0) return ret(hipErrorInvalidHandle);
  if (h.pid != static_cast<std::uint64_t>(getpid())) return from_other_process("hipIpcOpenMemHandle", h.pid, hipErrorMapFailed);
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  auto it = rt.allocations.find(h.base);
  if (it == rt.allocations.end() || it->second != h.size) return ret(hipErrorInvalidHandle);  // freed since
  void* p = reinterpret_cast<void*>(h.base + h.offset);
  ++opened[p];
  *dev_ptr = p;
  return hipSuccess;
}

hipError_t close_memory(void* dev_ptr) {
  std::lock_guard lock(runtime().mutex);
  auto it = opened.find(dev_ptr);
  if (it == opened.end()) return ret(hipErrorInvalidHandle);
  if (--it->second == 0) opened.erase(it);  // the memory stays its owner's
  return hipSuccess;
}

hipError_t export_event(hipIpcEventHandle_t* handle, hipEvent_t event) {
  if (!handle) return ret(hipErrorInvalidValue);
  std::lock_guard lock(runtime().mutex);
  if (!is_live_event(event)) return ret(hipErrorInvalidValue);
  constexpr unsigned needed = hipEventInterprocess | hipEventDisableTiming;
  if ((event->flags & needed) != needed) return ret(hipErrorInvalidConfiguration);
  if (!event->ipc_id) {
    event->ipc_id = next_event_id++;
    shared_events[event->ipc_id] = event->state;
  }
  EventHandle h{};
  std::memcpy(h.magic, kEventMagic, sizeof(h.magic));
  h.pid = static_cast<std::uint64_t>(getpid());
  h.id = event->ipc_id;
  std::memset(handle, 0, sizeof(*handle));
  std::memcpy(handle, &h, sizeof(h));
  return hipSuccess;
}

hipError_t open_event(hipEvent_t* event, hipIpcEventHandle_t handle) {
  if (!event) return ret(hipErrorInvalidValue);
  EventHandle h;
  std::memcpy(&h, &handle, sizeof(h));
  if (std::memcmp(h.magic, kEventMagic, sizeof(h.magic)) != 0) return ret(hipErrorInvalidValue);
  if (h.pid != static_cast<std::uint64_t>(getpid())) return from_other_process("hipIpcOpenEventHandle", h.pid, hipErrorInvalidContext);
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  auto it = shared_events.find(h.id);
  std::shared_ptr<EventState> state = it == shared_events.end() ? nullptr : it->second.lock();
  if (!state) return ret(hipErrorInvalidValue);  // every event sharing it was destroyed
  // A new event that shares the original's state: recording either is seen by both. It behaves
  // as one made with hipEventDisableTiming.
  auto* e = new ihipEvent_t;
  e->flags = hipEventDisableTiming | hipEventInterprocess;
  e->state = state;
  e->ipc_id = h.id;
  rt.events.insert(e);
  *event = e;
  return hipSuccess;
}

}  // namespace gpuport::emu::hip
