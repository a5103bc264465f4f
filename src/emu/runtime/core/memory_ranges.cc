// What the runtime's core knows about a pointer or a range of memory: the advice given to managed
// memory and where it was last prefetched (kept per 4 KiB page, as hipMemRangeGetAttribute
// reports it), the allocation a pointer lies in, and the driver-style pointer attributes.
// Advice changes no behaviour here (host and device share one memory); it is recorded so the
// program reads back what it set.
#include "emu/runtime/core/memory_ranges.h"

#include <cstring>

namespace gpuport::emu::hip {
namespace {

constexpr std::uint64_t kPage = 4096;

struct Page {
  bool read_mostly = false, coarse_grain = false;
  int preferred = hipInvalidDeviceId, last_prefetch = hipInvalidDeviceId;
  bool accessed_by_device = false, accessed_by_cpu = false;
};
struct ManagedRange {
  std::uint64_t size = 0;
  std::vector<Page> pages;
};
std::map<std::uintptr_t, ManagedRange> managed;  // by allocation base, under the runtime's lock

// The allocation holding [p, p + count), or allocations.end(). Lock held.
std::map<std::uintptr_t, std::size_t>::const_iterator allocation_of(const void* p, size_t count) {
  const auto& all = runtime().allocations;
  const auto address = reinterpret_cast<std::uintptr_t>(p);
  auto it = all.upper_bound(address);
  if (it == all.begin()) return all.end();
  --it;
  if (address - it->first >= std::max<size_t>(it->second, 1) || count > it->second - (address - it->first)) return all.end();
  return it;
}

// The pages of managed memory [p, p + count) covers, or null when it is not all managed memory
// of one allocation. Lock held.
std::pair<Page*, Page*> managed_pages(const void* p, size_t count) {
  if (!p || count == 0) return {nullptr, nullptr};
  auto it = allocation_of(p, count);
  if (it == runtime().allocations.end()) return {nullptr, nullptr};
  const auto* region = runtime().memory.find(it->first, 1);
  if (!region || region->name != kManagedAllocation) return {nullptr, nullptr};
  auto& range = managed[it->first];
  if (range.size != it->second) range = {it->second, std::vector<Page>((it->second + kPage - 1) / kPage)};  // a new allocation there
  const std::uint64_t first = (reinterpret_cast<std::uintptr_t>(p) - it->first) / kPage;
  const std::uint64_t last = (reinterpret_cast<std::uintptr_t>(p) - it->first + count - 1) / kPage;
  return {range.pages.data() + first, range.pages.data() + last + 1};
}

bool is_location(int device) { return device == 0 || device == hipCpuDeviceId; }

// One attribute over every page of the range.
hipError_t range_attribute(void* data, size_t size, hipMemRangeAttribute attribute, Page* begin, Page* end) {
  if (!data || size < 4 || size % 4) return ret(hipErrorInvalidValue);
  auto* out = static_cast<int*>(data);
  auto same = [&](auto field) {
    const int v = begin->*field;
    for (Page* p = begin; p != end; ++p)
      if (p->*field != v) return int(hipInvalidDeviceId);
    return v;
  };
  auto all = [&](bool Page::*field) {
    for (Page* p = begin; p != end; ++p)
      if (!(p->*field)) return false;
    return true;
  };
  switch (attribute) {
    case hipMemRangeAttributeReadMostly:
      if (size != 4) return ret(hipErrorInvalidValue);
      *out = all(&Page::read_mostly);
      return hipSuccess;
    case hipMemRangeAttributePreferredLocation:
      if (size != 4) return ret(hipErrorInvalidValue);
      *out = same(&Page::preferred);
      return hipSuccess;
    case hipMemRangeAttributeLastPrefetchLocation:
      if (size != 4) return ret(hipErrorInvalidValue);
      *out = same(&Page::last_prefetch);
      return hipSuccess;
    case hipMemRangeAttributeAccessedBy: {
      // The locations set for the whole range, the rest of the array hipInvalidDeviceId.
      std::vector<int> locations;
      if (all(&Page::accessed_by_device)) locations.push_back(0);
      if (all(&Page::accessed_by_cpu)) locations.push_back(hipCpuDeviceId);
      for (size_t i = 0; i < size / 4; ++i) out[i] = i < locations.size() ? locations[i] : hipInvalidDeviceId;
      return hipSuccess;
    }
    case hipMemRangeAttributeCoherencyMode: {
      if (size != 4) return ret(hipErrorInvalidValue);
      const bool coarse = all(&Page::coarse_grain);
      bool fine = true;
      for (Page* p = begin; p != end; ++p) fine = fine && !p->coarse_grain;
      *out = coarse ? hipMemRangeCoherencyModeCoarseGrain : fine ? hipMemRangeCoherencyModeFineGrain : hipMemRangeCoherencyModeIndeterminate;
      return hipSuccess;
    }
  }
  return ret(hipErrorInvalidValue);
}

}  // namespace
hipError_t advise(const void* p, size_t count, hipMemoryAdvise advice, int device) {
  std::lock_guard lock(runtime().mutex);
  auto [begin, end] = managed_pages(p, count);
  if (!begin) return ret(hipErrorInvalidValue);
  const bool needs_location = advice == hipMemAdviseSetPreferredLocation || advice == hipMemAdviseSetAccessedBy ||
                              advice == hipMemAdviseUnsetAccessedBy;
  if (needs_location && !is_location(device)) return ret(hipErrorInvalidDevice);
  for (Page* page = begin; page != end; ++page) {
    switch (advice) {
      case hipMemAdviseSetReadMostly: page->read_mostly = true; break;
      case hipMemAdviseUnsetReadMostly: page->read_mostly = false; break;
      case hipMemAdviseSetPreferredLocation: page->preferred = device; break;
      case hipMemAdviseUnsetPreferredLocation: page->preferred = hipInvalidDeviceId; break;
      case hipMemAdviseSetAccessedBy: (device == 0 ? page->accessed_by_device : page->accessed_by_cpu) = true; break;
      case hipMemAdviseUnsetAccessedBy: (device == 0 ? page->accessed_by_device : page->accessed_by_cpu) = false; break;
      case hipMemAdviseSetCoarseGrain: page->coarse_grain = true; break;
      case hipMemAdviseUnsetCoarseGrain: page->coarse_grain = false; break;
      default: return ret(hipErrorInvalidValue);
    }
  }
  return hipSuccess;
}

hipError_t prefetch(const void* p, size_t count, int device, hipStream_t stream) {
  {
    std::lock_guard lock(runtime().mutex);
    if (!managed_pages(p, count).first) return ret(hipErrorInvalidValue);
  }
  if (!is_location(device)) return ret(hipErrorInvalidDevice);
  // Nothing moves (one memory); the stream records where the range went when it gets there.
  return submit(stream, Uncapturable{[=] {
                  std::lock_guard lock(runtime().mutex);
                  auto [begin, end] = managed_pages(p, count);
                  for (Page* page = begin; page && page != end; ++page) page->last_prefetch = device;
                  return hipSuccess;
                }});
}

hipError_t range_attribute_of(void* data, size_t size, hipMemRangeAttribute attribute, const void* p, size_t count) {
  std::lock_guard lock(runtime().mutex);
  auto [begin, end] = managed_pages(p, count);
  if (!begin) return ret(hipErrorInvalidValue);
  return range_attribute(data, size, attribute, begin, end);
}

hipError_t range_attributes_of(void** data, size_t* sizes, hipMemRangeAttribute* attributes, size_t n, const void* p, size_t count) {
  if (!data || !sizes || !attributes || n == 0) return ret(hipErrorInvalidValue);
  std::lock_guard lock(runtime().mutex);
  auto [begin, end] = managed_pages(p, count);
  if (!begin) return ret(hipErrorInvalidValue);
  for (size_t i = 0; i < n; ++i)
    if (hipError_t e = range_attribute(data[i], sizes[i], attributes[i], begin, end)) return e;
  return hipSuccess;
}

hipError_t attach_memory(hipStream_t stream, void* p, size_t length, unsigned int flags) {
  if (flags != hipMemAttachGlobal && flags != hipMemAttachHost && flags != hipMemAttachSingle) return ret(hipErrorInvalidValue);
  {
    std::lock_guard lock(runtime().mutex);
    auto it = allocation_of(p, 1);
    if (!p || it == runtime().allocations.end() || it->first != reinterpret_cast<std::uintptr_t>(p)) return ret(hipErrorInvalidValue);
    if (length != 0 && length != it->second) return ret(hipErrorInvalidValue);  // the whole allocation
    const auto* region = runtime().memory.find(it->first, 1);
    if (!region || region->kind != AddressSpace::Kind::device) return ret(hipErrorInvalidValue);
  }
  // Every stream sees all memory here: the attachment has no effect beyond its place in order.
  return submit(stream, Uncapturable{[] { return hipSuccess; }});
}

hipError_t address_range(hipDeviceptr_t* base, size_t* size, hipDeviceptr_t p) {
  std::lock_guard lock(runtime().mutex);
  auto it = allocation_of(p, 1);
  if (!p || it == runtime().allocations.end()) return ret(hipErrorInvalidDevicePointer);
  if (base) *base = reinterpret_cast<void*>(it->first);
  if (size) *size = it->second;
  return hipSuccess;
}

hipError_t allocation_size(void* p, size_t* size) {
  if (!p || !size) return ret(hipErrorInvalidValue);
  std::lock_guard lock(runtime().mutex);
  auto it = allocation_of(p, 1);
  if (it == runtime().allocations.end()) return ret(hipErrorInvalidValue);
  *size = it->second;
  return hipSuccess;
}

hipError_t pointer_attribute(void* data, hipPointer_attribute attribute, hipDeviceptr_t p) {
  if (!data || !p) return ret(hipErrorInvalidValue);
  std::lock_guard lock(runtime().mutex);
  const auto* region = runtime().memory.find(reinterpret_cast<std::uint64_t>(p), 1);
  auto it = allocation_of(p, 1);
  if (!region) return ret(hipErrorInvalidValue);  // memory the runtime does not know
  const bool host = region->kind == AddressSpace::Kind::host, is_managed = region->name == kManagedAllocation;
  const bool owned = it != runtime().allocations.end();
  // Booleans and enumerations are written as unsigned int, pointers and sizes at their width.
  auto put_uint = [&](unsigned v) { std::memcpy(data, &v, sizeof(v)); };
  switch (attribute) {
    case HIP_POINTER_ATTRIBUTE_MEMORY_TYPE:
      put_uint(is_managed ? kManagedMemoryType : host ? hipMemoryTypeHost : hipMemoryTypeDevice);
      break;
    case HIP_POINTER_ATTRIBUTE_DEVICE_POINTER: *static_cast<void**>(data) = p; break;
    case HIP_POINTER_ATTRIBUTE_HOST_POINTER:
      if (!host && !is_managed) return ret(hipErrorInvalidValue);  // device memory has no host mapping
      *static_cast<void**>(data) = p;
      break;
    case HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS: put_uint(1); break;  // every operation is synchronous here
    case HIP_POINTER_ATTRIBUTE_BUFFER_ID: *static_cast<unsigned long long*>(data) = region->base; break;
    case HIP_POINTER_ATTRIBUTE_IS_MANAGED: put_uint(is_managed); break;
    case HIP_POINTER_ATTRIBUTE_DEVICE_ORDINAL: *static_cast<int*>(data) = 0; break;
    case HIP_POINTER_ATTRIBUTE_RANGE_START_ADDR:
      *static_cast<void**>(data) = reinterpret_cast<void*>(owned ? it->first : region->base);
      break;
    case HIP_POINTER_ATTRIBUTE_RANGE_SIZE: *static_cast<size_t*>(data) = owned ? it->second : region->size; break;
    case HIP_POINTER_ATTRIBUTE_MAPPED: put_uint(1); break;
    case HIP_POINTER_ATTRIBUTE_ACCESS_FLAGS: put_uint(hipMemAccessFlagsProtReadWrite); break;
    default: return ret(hipErrorInvalidValue);  // the attributes HIP documents as not supported
  }
  return hipSuccess;
}

}  // namespace gpuport::emu::hip
