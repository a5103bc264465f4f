// Host C++, compiled by the C++ compiler: CUDA's runtime API through <cuda_runtime.h>.
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "saxpy.h"

int main() {
  const int n = 1000;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = float(i);
    y[i] = 1.0f;
  }
  float *dx = nullptr, *dy = nullptr;
  if (cudaMalloc(&dx, n * sizeof(float)) != cudaSuccess || cudaMalloc(&dy, n * sizeof(float)) != cudaSuccess) {
    std::printf("saxpy: cudaMalloc failed\n");
    return 1;
  }
  cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  saxpy_on_device(n, 2.0f, dx, dy);
  cudaError_t err = cudaDeviceSynchronize();
  cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
  double sum = 0;
  for (float v : y) sum += v;  // 2 * (0 + ... + 999) + 1000
  const bool ok = err == cudaSuccess && sum == 2.0 * 999 * 1000 / 2 + 1000;
  std::printf("saxpy: %.1f (%s): %s\n", sum, cudaGetErrorString(err), ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
