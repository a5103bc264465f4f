#include <cuda_runtime.h>

__global__ void square(int* values, int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) values[i] *= values[i];
}

// Squares count values in device memory.
void square_on_device(int* values, int count) { square<<<(count + 63) / 64, 64>>>(values, count); }
