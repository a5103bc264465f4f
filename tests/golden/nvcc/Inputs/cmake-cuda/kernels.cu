#include <cuda_runtime.h>

#include "saxpy.h"

__global__ void saxpy_kernel(int n, float a, const float* x, float* y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

void saxpy_on_device(int n, float a, const float* x, float* y) {
  saxpy_kernel<<<(n + 255) / 256, 256>>>(n, a, x, y);
}
