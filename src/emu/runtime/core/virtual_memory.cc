// Virtual memory management in the runtime's core: physical allocations (hipMemCreate)
// are host files in memory (memfd), address ranges (hipMemAddressReserve) are reserved host
// address space, and hipMemMap maps an allocation's file over part of a range. A mapping becomes
// usable, and is registered with the emulator's address space so kernels' accesses are checked,
// when hipMemSetAccess grants access; unmapped, it is marked freed, so a later access is reported.
// hipMemMapArrayAsync (sparse arrays) belongs to the texture family and stays unimplemented.
#include "emu/runtime/core/virtual_memory.h"

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>

struct ihipMemGenericAllocationHandle {
  int fd = -1;  // the allocation's memory
  size_t size = 0;
  hipMemAllocationProp prop{};
  int references = 1;  // the handle itself (until hipMemRelease) and each mapping
};

namespace gpuport::emu::hip {
namespace {

constexpr size_t kGranularity = 4096, kRecommendedGranularity = 64 * 1024;

struct Mapping {
  size_t size = 0;
  ihipMemGenericAllocationHandle* allocation = nullptr;
  unsigned long long access = hipMemAccessFlagsProtNone;
};

std::map<std::uintptr_t, size_t> reservations;  // start -> size, under the runtime's lock
std::map<std::uintptr_t, Mapping> mappings;      // start -> mapping
std::set<ihipMemGenericAllocationHandle*> allocations;
std::map<std::pair<dev_t, ino_t>, ihipMemGenericAllocationHandle*> by_file;  // for imports

bool valid_prop(const hipMemAllocationProp* p) {
  return p && p->type == hipMemAllocationTypePinned && p->location.type == hipMemLocationTypeDevice && p->location.id == 0;
}

// The reservation holding [p, p + size), or reservations.end().
std::map<std::uintptr_t, size_t>::iterator reservation_of(std::uintptr_t p, size_t size) {
  auto it = reservations.upper_bound(p);
  if (it == reservations.begin()) return reservations.end();
  --it;
  return p - it->first < it->second && size <= it->second - (p - it->first) ? it : reservations.end();
}

// The mappings that exactly tile [p, p + size) in address order, or empty when they do not.
std::vector<std::map<std::uintptr_t, Mapping>::iterator> mappings_tiling(std::uintptr_t p, size_t size) {
  std::vector<std::map<std::uintptr_t, Mapping>::iterator> out;
  std::uintptr_t at = p;
  while (at < p + size) {
    auto it = mappings.find(at);
    if (it == mappings.end()) return {};
    out.push_back(it);
    at += it->second.size;
  }
  return at == p + size ? out : decltype(out){};
}

void drop_reference(ihipMemGenericAllocationHandle* a) {
  if (--a->references > 0) return;
  struct stat st;
  if (fstat(a->fd, &st) == 0)
    if (auto it = by_file.find({st.st_dev, st.st_ino}); it != by_file.end() && it->second == a) by_file.erase(it);
  close(a->fd);
  allocations.erase(a);
  delete a;
}

// A new allocation handle for the memory file `fd` (which it then owns).
ihipMemGenericAllocationHandle* adopt(int fd, size_t size, const hipMemAllocationProp& prop) {
  auto* a = new ihipMemGenericAllocationHandle;
  a->fd = fd;
  a->size = size;
  a->prop = prop;
  allocations.insert(a);
  struct stat st;
  if (fstat(fd, &st) == 0) by_file.emplace(std::make_pair(st.st_dev, st.st_ino), a);
  return a;
}

}  // namespace
hipError_t allocation_granularity(size_t* granularity, const hipMemAllocationProp* prop, hipMemAllocationGranularity_flags option) {
  if (!granularity || !valid_prop(prop)) return ret(hipErrorInvalidValue);
  switch (option) {
    case hipMemAllocationGranularityMinimum: *granularity = kGranularity; return hipSuccess;
    case hipMemAllocationGranularityRecommended: *granularity = kRecommendedGranularity; return hipSuccess;
  }
  return ret(hipErrorInvalidValue);
}

hipError_t create_physical(hipMemGenericAllocationHandle_t* handle, size_t size, const hipMemAllocationProp* prop, unsigned long long flags) {
  if (!handle || !valid_prop(prop) || flags != 0 || size == 0 || size % kGranularity) return ret(hipErrorInvalidValue);
  if (prop->requestedHandleType & ~unsigned(hipMemHandleTypePosixFileDescriptor)) return ret(hipErrorNotSupported);
  const int fd = memfd_create("gpuport-hipMemCreate", MFD_CLOEXEC);
  if (fd < 0) return ret(hipErrorOutOfMemory);
  if (ftruncate(fd, static_cast<off_t>(size)) != 0) {
    close(fd);
    return ret(hipErrorOutOfMemory);
  }
  std::lock_guard lock(runtime().mutex);
  *handle = adopt(fd, size, *prop);
  return hipSuccess;
}

hipError_t release_physical(hipMemGenericAllocationHandle_t handle) {
  std::lock_guard lock(runtime().mutex);
  if (!allocations.count(handle)) return ret(hipErrorInvalidValue);
  drop_reference(handle);  // the memory stays while mapped
  return hipSuccess;
}

hipError_t physical_properties(hipMemAllocationProp* prop, hipMemGenericAllocationHandle_t handle) {
  std::lock_guard lock(runtime().mutex);
  if (!prop || !allocations.count(handle)) return ret(hipErrorInvalidValue);
  *prop = handle->prop;
  return hipSuccess;
}

hipError_t reserve_addresses(void** ptr, size_t size, size_t alignment, void* addr, unsigned long long flags) {
  if (!ptr || size == 0 || size % kGranularity || flags != 0 || (alignment & (alignment - 1))) return ret(hipErrorInvalidValue);
  alignment = std::max(alignment, kGranularity);
  // Reserve enough to align the start, then give back what lies outside the aligned range.
  const size_t span = size + alignment - kGranularity;
  void* p = mmap(addr, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) return ret(hipErrorOutOfMemory);
  const auto base = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t start = (base + alignment - 1) / alignment * alignment;
  if (start > base) munmap(p, start - base);
  if (base + span > start + size) munmap(reinterpret_cast<void*>(start + size), base + span - (start + size));
  std::lock_guard lock(runtime().mutex);
  reservations[start] = size;
  *ptr = reinterpret_cast<void*>(start);
  return hipSuccess;
}

hipError_t free_addresses(void* ptr, size_t size) {
  std::lock_guard lock(runtime().mutex);
  auto it = reservations.find(reinterpret_cast<std::uintptr_t>(ptr));
  if (it == reservations.end() || it->second != size) return ret(hipErrorInvalidValue);
  const auto first = mappings.lower_bound(it->first);
  if (first != mappings.end() && first->first < it->first + size) return ret(hipErrorInvalidValue);  // still mapped
  munmap(ptr, size);
  reservations.erase(it);
  return hipSuccess;
}

hipError_t map_physical(void* ptr, size_t size, size_t offset, hipMemGenericAllocationHandle_t handle, unsigned long long flags) {
  std::lock_guard lock(runtime().mutex);
  const auto p = reinterpret_cast<std::uintptr_t>(ptr);
  if (!allocations.count(handle) || offset != 0 || flags != 0 || size == 0 || size % kGranularity || p % kGranularity ||
      size > handle->size || reservation_of(p, size) == reservations.end())
    return ret(hipErrorInvalidValue);
  auto next = mappings.lower_bound(p);
  if (next != mappings.end() && next->first < p + size) return ret(hipErrorInvalidValue);  // overlaps a mapping
  if (next != mappings.begin() && std::prev(next)->first + std::prev(next)->second.size > p) return ret(hipErrorInvalidValue);
  // No access until hipMemSetAccess grants it.
  if (mmap(ptr, size, PROT_NONE, MAP_SHARED | MAP_FIXED, handle->fd, 0) == MAP_FAILED) return ret(hipErrorOutOfMemory);
  ++handle->references;
  mappings[p] = {size, handle, hipMemAccessFlagsProtNone};
  return hipSuccess;
}

hipError_t unmap_physical(void* ptr, size_t size) {
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  const auto p = reinterpret_cast<std::uintptr_t>(ptr);
  auto tiles = mappings_tiling(p, size);
  if (tiles.empty()) return ret(hipErrorInvalidValue);
  for (auto it : tiles) {
    // Back to reserved address space; an access from now on is an access to freed memory.
    mmap(reinterpret_cast<void*>(it->first), it->second.size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
    if (it->second.access != hipMemAccessFlagsProtNone) rt.memory.release(it->first);
    drop_reference(it->second.allocation);
    mappings.erase(it);
  }
  return hipSuccess;
}

hipError_t set_access(void* ptr, size_t size, const hipMemAccessDesc* desc, size_t count) {
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  const auto p = reinterpret_cast<std::uintptr_t>(ptr);
  auto tiles = mappings_tiling(p, size);
  if (tiles.empty() || !desc || count == 0) return ret(hipErrorInvalidValue);
  unsigned long long access = hipMemAccessFlagsProtNone;
  for (size_t i = 0; i < count; ++i) {
    if (desc[i].location.type != hipMemLocationTypeDevice) return ret(hipErrorInvalidValue);
    if (desc[i].location.id != 0) return ret(hipErrorInvalidDevice);
    if (desc[i].flags != hipMemAccessFlagsProtNone && desc[i].flags != hipMemAccessFlagsProtRead &&
        desc[i].flags != hipMemAccessFlagsProtReadWrite)
      return ret(hipErrorInvalidValue);
    access = desc[i].flags;
  }
  const int prot = access == hipMemAccessFlagsProtReadWrite ? PROT_READ | PROT_WRITE : access == hipMemAccessFlagsProtRead ? PROT_READ : PROT_NONE;
  for (auto it : tiles) {
    mprotect(reinterpret_cast<void*>(it->first), it->second.size, prot);
    if (access == hipMemAccessFlagsProtNone && it->second.access != hipMemAccessFlagsProtNone) rt.memory.forget(it->first);
    if (access != hipMemAccessFlagsProtNone && it->second.access == hipMemAccessFlagsProtNone)
      rt.memory.add(it->first, it->second.size, AddressSpace::Kind::device, "hipMemMap");
    it->second.access = access;
  }
  return hipSuccess;
}

hipError_t access_of(unsigned long long* flags, const hipMemLocation* location, void* ptr) {
  if (!flags || !location || location->type != hipMemLocationTypeDevice || location->id != 0) return ret(hipErrorInvalidValue);
  std::lock_guard lock(runtime().mutex);
  const auto p = reinterpret_cast<std::uintptr_t>(ptr);
  auto it = mappings.upper_bound(p);
  if (it == mappings.begin() || p >= std::prev(it)->first + std::prev(it)->second.size) return ret(hipErrorInvalidValue);
  *flags = std::prev(it)->second.access;
  return hipSuccess;
}

hipError_t retain_physical(hipMemGenericAllocationHandle_t* handle, void* addr) {
  if (!handle) return ret(hipErrorInvalidValue);
  std::lock_guard lock(runtime().mutex);
  const auto p = reinterpret_cast<std::uintptr_t>(addr);
  auto it = mappings.upper_bound(p);
  if (it == mappings.begin() || p >= std::prev(it)->first + std::prev(it)->second.size) return ret(hipErrorInvalidValue);
  *handle = std::prev(it)->second.allocation;
  ++(*handle)->references;  // released with hipMemRelease like the handle hipMemCreate gave
  return hipSuccess;
}

hipError_t export_physical(void* shareable, hipMemGenericAllocationHandle_t handle, hipMemAllocationHandleType type, unsigned long long flags) {
  std::lock_guard lock(runtime().mutex);
  if (!shareable || !allocations.count(handle) || flags != 0 || type != hipMemHandleTypePosixFileDescriptor ||
      !(handle->prop.requestedHandleType & hipMemHandleTypePosixFileDescriptor))
    return ret(hipErrorInvalidValue);
  const int fd = dup(handle->fd);
  if (fd < 0) return ret(hipErrorOutOfMemory);
  *static_cast<int*>(shareable) = fd;
  return hipSuccess;
}

hipError_t import_physical(hipMemGenericAllocationHandle_t* handle, void* os_handle, hipMemAllocationHandleType type) {
  if (!handle || type != hipMemHandleTypePosixFileDescriptor) return ret(hipErrorInvalidValue);
  const int fd = static_cast<int>(reinterpret_cast<std::intptr_t>(os_handle));  // the descriptor, passed by value
  struct stat st;
  if (fstat(fd, &st) != 0) return ret(hipErrorInvalidValue);
  std::lock_guard lock(runtime().mutex);
  auto it = by_file.find({st.st_dev, st.st_ino});
  if (it == by_file.end()) {
    std::fprintf(stderr, "gpuport run: hipMemImportFromShareableHandle: the descriptor names no allocation of this process "
                         "(each process runs its own emulated device; another process's memory cannot be mapped)\n");
    return ret(hipErrorInvalidValue);
  }
  // A handle of its own to the same memory.
  const int own = dup(fd);
  if (own < 0) return ret(hipErrorOutOfMemory);
  auto* a = new ihipMemGenericAllocationHandle;
  a->fd = own;
  a->size = it->second->size;
  a->prop = it->second->prop;
  allocations.insert(a);
  *handle = a;
  return hipSuccess;
}

}  // namespace gpuport::emu::hip
