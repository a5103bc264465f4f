// Device memory as a program sized by hipMemGetInfo uses it (gpu-burn: 80% of the free memory in
// one block, hipMemset to zero, then a few parts written): the emulated device's memory is the
// host's, and only what is written takes any. The block must still read as the program wrote it:
// zero where nothing was written, the kernel's and the memsets' values where they were, zero
// again after a second hipMemset of the whole block.
#include <hip/hip_runtime.h>

#include <sys/resource.h>

#include <vector>

#include "hip_check.h"

__global__ void fill(unsigned* p, unsigned base, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = base + i;
}

static long peak_rss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss / 1024;
}

static bool all(const std::vector<unsigned char>& v, unsigned char x) {
  for (unsigned char c : v)
    if (c != x) return false;
  return true;
}

int main() {
  size_t free_bytes = 0, total = 0;
  EXPECT_OK(hipMemGetInfo(&free_bytes, &total));
  const size_t bytes = free_bytes / 10 * 8;
  EXPECT(bytes >= (size_t(16) << 30));  // the emulated RX 7900 XTX's 24 GiB
  char* p = nullptr;
  EXPECT_OK(hipMalloc(&p, bytes));
  EXPECT_OK(hipMemset(p, 0, bytes));
  // A kernel writes 1 MiB in the middle, a memset 5,000 bytes near the start.
  const unsigned n = 1u << 18;
  unsigned* middle = reinterpret_cast<unsigned*>(p + bytes / 2 / 4096 * 4096);
  fill<<<n / 256, 256>>>(middle, 5, n);
  EXPECT_OK(hipMemset(p + 3 * 4096 + 100, 0x7f, 5000));
  std::vector<unsigned> back(n);
  EXPECT_OK(hipMemcpy(back.data(), middle, n * 4, hipMemcpyDeviceToHost));
  bool filled = true;
  for (unsigned i = 0; i < n; ++i) filled = filled && back[i] == 5 + i;
  EXPECT(filled);
  std::vector<unsigned char> edge(6000), before(100), inside(5000), after(900), tail(1 << 20, 1);
  EXPECT_OK(hipMemcpy(edge.data(), p + 3 * 4096, edge.size(), hipMemcpyDeviceToHost));
  before.assign(edge.begin(), edge.begin() + 100);
  inside.assign(edge.begin() + 100, edge.begin() + 5100);
  after.assign(edge.begin() + 5100, edge.end());
  EXPECT(all(before, 0) && all(inside, 0x7f) && all(after, 0));
  EXPECT_OK(hipMemcpy(tail.data(), p + bytes - tail.size(), tail.size(), hipMemcpyDeviceToHost));
  EXPECT(all(tail, 0));
  // Zero again, whole: what the kernel and the memset wrote is gone.
  EXPECT_OK(hipMemset(p, 0, bytes));
  EXPECT_OK(hipMemcpy(back.data(), middle, n * 4, hipMemcpyDeviceToHost));
  bool zero = true;
  for (unsigned i = 0; i < n; ++i) zero = zero && back[i] == 0;
  EXPECT(zero);
  EXPECT_OK(hipMemcpy(edge.data(), p + 3 * 4096, edge.size(), hipMemcpyDeviceToHost));
  EXPECT(all(edge, 0));
  // A 16-bit memset of zero into a written part: the same.
  fill<<<n / 256, 256>>>(middle, 9, n);
  EXPECT_OK(hipMemsetD16(reinterpret_cast<hipDeviceptr_t>(middle), 0, n * 2));
  EXPECT_OK(hipMemcpy(back.data(), middle, n * 4, hipMemcpyDeviceToHost));
  zero = true;
  for (unsigned i = 0; i < n; ++i) zero = zero && back[i] == 0;
  EXPECT(zero);
  // The block took host memory for the pages written and read, not for its 19 GiB.
  EXPECT(peak_rss_mib() < 1024);
  EXPECT_OK(hipFree(p));
  return finish("large-blocks");
}
