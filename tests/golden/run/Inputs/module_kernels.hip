// Device code loaded at run time by modules.hip (hipModuleLoad*): built with --cuda-device-only
// as a code object, an offload bundle, and bundled for another GPU only.
#include <hip/hip_runtime.h>

__device__ int module_counter = 42;

extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

extern "C" __global__ void count(int n) {
  if (threadIdx.x == 0) atomicAdd(&module_counter, n);
}

// 1024 bytes of static LDS: each block rotates its 256 floats by half.
extern "C" __global__ void rotate_block(float* data) {
  __shared__ float tile[256];
  const int base = blockIdx.x * 256;
  tile[threadIdx.x] = data[base + threadIdx.x];
  __syncthreads();
  data[base + threadIdx.x] = tile[(threadIdx.x + 128) % 256];
}
