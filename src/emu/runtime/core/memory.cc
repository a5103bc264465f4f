// Memory the runtime hands out: zeroed whole pages registered with the emulator's address space
// (so that every kernel access to them is checked), released into use-after-free records, and the
// check that a host range the program names is mapped before a copy touches it.
#include "emu/runtime/core/queues.h"

#include <cstring>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

namespace gpuport::emu::hip {

void* allocate(size_t size, AddressSpace::Kind kind, const char* what) {
  // Whole pages, as a GPU driver hands out device memory: code relies on it (the device
  // library's free() tells a large block from a slab's by 4 KiB alignment).
  constexpr size_t kPage = 4096;
  // Beyond the device's memory (hipMalloc(SIZE_MAX) among them, whose rounding would wrap): out
  // of memory, as on the GPU.
  if (size > kDeviceMemoryBytes) return nullptr;
  const size_t rounded = std::max<size_t>(kPage, (size + kPage - 1) / kPage * kPage);
  // A device block of 1 MiB or more is a mapping of its own: made present at once (as a GPU's
  // memory is, so that its first kernel does not pay for the host's page faults), or, from
  // kLazyZeroBytes on, left to the first write.
  const bool mapped = rounded >= (size_t(1) << 20) && kind == AddressSpace::Kind::device && std::strcmp(what, kManagedAllocation) != 0;
  void* p = nullptr;
  if (mapped) {
    const int populate = rounded < kLazyZeroBytes ? MAP_POPULATE : MAP_NORESERVE;
    p = ::mmap(nullptr, rounded, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | populate, -1, 0);
    if (p == MAP_FAILED) return nullptr;
  } else {
    p = std::aligned_alloc(kPage, rounded);
    if (!p) return nullptr;
    std::memset(p, 0, rounded);
  }
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  if (mapped) rt.mapped[reinterpret_cast<std::uintptr_t>(p)] = rounded;
  rt.allocations[reinterpret_cast<std::uintptr_t>(p)] = size;
  rt.origin[reinterpret_cast<std::uintptr_t>(p)] = what;
  rt.memory.add(reinterpret_cast<std::uint64_t>(p), size, kind, what);
  return p;
}

bool host_memory_accessible(std::uintptr_t address, size_t bytes, bool write) {
  struct Mapping {
    std::uintptr_t start, end;
    bool read, write;
  };
  static std::mutex mutex;
  static std::vector<Mapping> mappings;  // sorted by start, as the kernel lists them
  if (bytes == 0) return true;
  if (address + bytes < address) return false;
  auto covered = [&] {
    std::uintptr_t at = address;
    auto it = std::upper_bound(mappings.begin(), mappings.end(), at, [](std::uintptr_t a, const Mapping& m) { return a < m.start; });
    if (it == mappings.begin()) return false;
    for (--it; it != mappings.end() && it->start <= at; ++it) {
      if (at >= it->end) continue;
      if (!it->read || (write && !it->write)) return false;
      at = it->end;
      if (at >= address + bytes) return true;
    }
    return false;
  };
  std::lock_guard lock(mutex);
  if (covered()) return true;
  mappings.clear();
  if (FILE* f = std::fopen("/proc/self/maps", "re")) {
    unsigned long start = 0, end = 0;
    char perms[8] = {};
    char line[4096];
    while (std::fgets(line, sizeof line, f))
      if (std::sscanf(line, "%lx-%lx %7s", &start, &end, perms) == 3) mappings.push_back({start, end, perms[0] == 'r', perms[1] == 'w'});
    std::fclose(f);
  }
  return covered();
}

hipError_t release(void* p) {
  if (!p) return hipSuccess;
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  auto it = rt.allocations.find(reinterpret_cast<std::uintptr_t>(p));
  if (it == rt.allocations.end()) return ret(hipErrorInvalidValue);
  rt.allocations.erase(it);
  rt.origin.erase(reinterpret_cast<std::uintptr_t>(p));
  rt.memory.release(reinterpret_cast<std::uint64_t>(p));
  if (auto m = rt.mapped.find(reinterpret_cast<std::uintptr_t>(p)); m != rt.mapped.end()) {
    ::munmap(p, m->second);
    rt.mapped.erase(m);
  } else {
    std::free(p);
  }
  return hipSuccess;
}

void fill_zero(void* p, size_t bytes) {
  if (!bytes) return;
  const auto first = reinterpret_cast<std::uintptr_t>(p), last = first + bytes;
  bool lazy = false;  // inside a block of zero pages until written (the others are all present)
  {
    auto& rt = runtime();
    std::lock_guard lock(rt.mutex);
    auto it = rt.mapped.upper_bound(first);
    lazy = it != rt.mapped.begin() && std::prev(it)->second >= kLazyZeroBytes && last <= std::prev(it)->first + std::prev(it)->second;
  }
  constexpr std::uintptr_t kPage = 4096;
  const std::uintptr_t from = first & ~(kPage - 1), to = (last + kPage - 1) & ~(kPage - 1);
  // /proc/self/pagemap: a 64-bit entry per page, bit 63 present, bit 62 swapped out.
  const int fd = lazy && to - from >= 16 * kPage ? ::open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC) : -1;
  if (fd < 0) {
    std::memset(p, 0, bytes);
    return;
  }
  std::vector<std::uint64_t> entries(4096);
  for (std::uintptr_t page = from; page < to;) {
    const std::size_t n = std::min<std::size_t>(entries.size(), (to - page) / kPage);
    const ssize_t got = ::pread(fd, entries.data(), n * 8, static_cast<off_t>(page / kPage * 8));
    if (got != static_cast<ssize_t>(n * 8)) {  // unreadable: fill the rest
      const std::uintptr_t a = std::max(first, page);
      std::memset(reinterpret_cast<void*>(a), 0, last - a);
      break;
    }
    for (std::size_t i = 0; i < n; ++i, page += kPage) {
      if (!(entries[i] >> 62)) continue;  // neither present nor swapped: a zero page
      const std::uintptr_t a = std::max(first, page), b = std::min(last, page + kPage);
      std::memset(reinterpret_cast<void*>(a), 0, b - a);
    }
  }
  ::close(fd);
}

hipError_t allocate_device(void** p, size_t size, const char* what) {
  if (!p) return ret(hipErrorInvalidValue);
  if (hipError_t e = check_unsafe_call()) return e;
  if (size == 0) {
    *p = nullptr;
    return hipSuccess;
  }
  *p = allocate(size, AddressSpace::Kind::device, what);
  return *p ? hipSuccess : ret(hipErrorOutOfMemory);
}

size_t device_memory_in_use() {
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  size_t used = 0;
  for (const auto& [p, size] : rt.allocations) used += size;
  return used;
}

namespace {
// The flags pinned host memory was allocated or registered with (hipHostGetFlags), by its start.
// Under the runtime's lock.
std::map<const void*, unsigned> host_flags;
}  // namespace

hipError_t allocate_host(void** p, size_t size, unsigned flags, const char* what) {
  *p = size ? allocate(size, AddressSpace::Kind::host, what) : nullptr;
  if (size && !*p) return ret(hipErrorOutOfMemory);
  std::lock_guard lock(runtime().mutex);
  if (*p) host_flags[*p] = flags;
  return hipSuccess;
}

hipError_t release_host(void* p) {
  {
    std::lock_guard lock(runtime().mutex);
    host_flags.erase(p);
  }
  return release(p);
}

void register_host(void* p, size_t size, unsigned flags) {
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  rt.memory.add(reinterpret_cast<std::uint64_t>(p), size, AddressSpace::Kind::host, "hipHostRegister");
  host_flags[p] = flags;
}

void unregister_host(void* p) {
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  rt.memory.forget(reinterpret_cast<std::uint64_t>(p));
  host_flags.erase(p);
}

hipError_t host_flags_of(const void* p, unsigned* flags) {
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  // The block p lies in: the last one starting at or before it, if p is inside it.
  auto it = host_flags.upper_bound(p);
  if (it == host_flags.begin()) return ret(hipErrorInvalidValue);
  --it;
  const auto* r = rt.memory.find(reinterpret_cast<std::uint64_t>(it->first), 1);
  if (!r || reinterpret_cast<std::uint64_t>(p) >= r->base + std::max<std::uint64_t>(r->size, 1)) return ret(hipErrorInvalidValue);
  *flags = it->second;
  return hipSuccess;
}

}  // namespace gpuport::emu::hip
