// Hand-written HIP: a templated launch through HIP_KERNEL_NAME, a symbol copy, HIP index macros,
// wave64 idioms (a reduction from offset 32, a 64-bit full mask, lane & 63) and a platform test.
#include <hip/hip_runtime.h>
#include <cstdio>

#define CHECK(x) do { hipError_t e = (x); if (e != hipSuccess) { printf("%s\n", hipGetErrorString(e)); return 1; } } while (0)

__constant__ float coef[4];

template <typename T>
__global__ void saxpy(T a, const T* x, T* y, int n) {
  int i = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;
  if (i < n) y[i] = a * x[i] + y[i] * coef[i & 3];
}

__global__ void reduce(const float* x, float* out) {
  float v = x[threadIdx.x];
  for (int offset = 32; offset > 0; offset >>= 1) v += __shfl_xor(v, offset);
  unsigned long long m = __ballot(v > 0.0f);
  if (m == 0xffffffffffffffffull) out[0] = v;
  if ((threadIdx.x & 63) == 0) out[1] = v;
#if defined(__HIP_PLATFORM_NVIDIA__)
  out[2] = 1.0f;
#endif
}

int main() {
  const int n = 1 << 10;
  float *x, *y;
  CHECK(hipMalloc(&x, n * sizeof(float)));
  CHECK(hipMalloc(&y, n * sizeof(float)));
  float h[4] = {1, 2, 3, 4};
  CHECK(hipMemcpyToSymbol(HIP_SYMBOL(coef), h, sizeof h));
  hipLaunchKernelGGL(HIP_KERNEL_NAME(saxpy<float>), dim3(n / 256), dim3(256), 0, 0, 2.0f, x, y, n);
  hipStream_t s;
  CHECK(hipStreamCreate(&s));
  hipLaunchKernelGGL(reduce, dim3(1), dim3(64), 0, s, x, y);
  CHECK(hipDeviceSynchronize());

  CHECK(hipFree(x));
  return 0;
}
