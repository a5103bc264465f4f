// A HIP program with no kernels of its own (as AMD's device_query and bandwidth examples are):
// its executable has no .hip_fatbin section, and its GPU work is copies and memsets.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <vector>

int main() {
  int count = 0;
  if (hipGetDeviceCount(&count) != hipSuccess || count != 1) return 1;
  constexpr size_t n = 1 << 16;
  unsigned char* d = nullptr;
  if (hipMalloc(&d, n) != hipSuccess) return 2;
  std::vector<unsigned char> back(n, 0);
  if (hipMemset(d, 0x5a, n) != hipSuccess || hipMemcpy(back.data(), d, n, hipMemcpyDeviceToHost) != hipSuccess) return 3;
  for (unsigned char b : back)
    if (b != 0x5a) return 4;
  if (hipFree(d) != hipSuccess) return 5;
  std::printf("no_kernels: PASS (%d device)\n", count);
  return 0;
}
