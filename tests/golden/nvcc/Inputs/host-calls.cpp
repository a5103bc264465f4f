// Host C++ compiled by g++ outside nvcc (cuSZ's memory helpers): calls the translator rewrites
// by their arguments. cudaMallocHost with two gets HIP's flags, cudaEventCreate with two is
// hipEventCreateWithFlags; both through the toolkit's <cuda_runtime.h>.
#include <cuda_runtime.h>

#include <cstdio>

int main() {
  float* pinned = nullptr;
  cudaEvent_t plain, untimed;
  const bool ok = cudaMallocHost(&pinned, 256 * sizeof(float)) == cudaSuccess && cudaEventCreate(&plain) == cudaSuccess &&
                  cudaEventCreate(&untimed, cudaEventDisableTiming) == cudaSuccess;
  for (int i = 0; ok && i < 256; ++i) pinned[i] = float(i);
  std::printf("host calls: %s\n", ok && pinned[255] == 255.0f ? "PASS" : "FAIL");
  cudaEventDestroy(plain);
  cudaEventDestroy(untimed);
  cudaFreeHost(pinned);
  return ok ? 0 : 1;
}
