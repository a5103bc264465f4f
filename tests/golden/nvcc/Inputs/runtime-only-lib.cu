// A shared library of CUDA code that needs HIP's runtime and nothing of ROCm's libraries.
#include <cuda_runtime.h>

__global__ void iota(int* v) { v[threadIdx.x] = threadIdx.x; }

extern "C" int iota_sum(int n) {
  int *d, h[64], sum = 0;
  if (n > 64 || cudaMalloc(&d, n * sizeof(int)) != cudaSuccess) return -1;
  iota<<<1, n>>>(d);
  cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d);
  for (int i = 0; i < n; ++i) sum += h[i];
  return sum;
}
