// Memory advice for the few large buffers a translation fills once (file text, tokens,
// output): asking for transparent huge pages turns hundreds of page faults per megabyte into
// one, which is a large share of the time on big inputs. Advice only: ignored where the
// kernel has huge pages off, and harmless on small buffers (skipped).
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>

namespace gpuport {

// Call on a buffer's storage after reserving it and before writing it.
inline void advise_huge_pages(const void* data, std::size_t bytes) {
  constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
  if (data == nullptr || bytes < 4 * kHuge) return;
  const auto first = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t begin = (first + kHuge - 1) & ~(kHuge - 1);
  const std::uintptr_t end = (first + bytes) & ~(kHuge - 1);
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}

// Makes `buffer` (a std::vector or std::string, contents discarded) hold at least `count`
// elements without reallocating later; storage that must grow is fresh, so it is advised
// before anything touches it. Storage already large enough is kept (a reused buffer).
template <class Buffer>
void reserve_fresh(Buffer& buffer, std::size_t count) {
  buffer.clear();
  if (buffer.capacity() >= count) return;
  buffer = Buffer();
  buffer.reserve(count);
  advise_huge_pages(buffer.data(), buffer.capacity() * sizeof(buffer[0]));
}

}  // namespace gpuport
