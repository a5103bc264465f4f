// --to cuda: hipLaunchKernelGGL becomes <<<>>>, HIP_KERNEL_NAME and HIP_SYMBOL are unwrapped,
// HIP's index macros become CUDA's built-in variables, and the names come from the CUDA -> HIP
// tables read the other way.
// RUN: %gpuport translate --to cuda %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <hip/hip_runtime.h>
// CHECK: #include <cuda_runtime.h>

__constant__ float coef[4];

template <typename T, int N>
__global__ void scale(T a, const T* x, T* y, int n) {
  int i = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;
  // CHECK: int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] * coef[i % N];
}

__global__ void plain(float* y) { y[threadIdx.x] = 0.0f; }

int run(const float* x, float* y, int n, hipStream_t stream) {
  // CHECK: int run(const float* x, float* y, int n, cudaStream_t stream) {
  float h[4] = {1, 2, 3, 4};
  if (hipMemcpyToSymbol(HIP_SYMBOL(coef), h, sizeof h) != hipSuccess) return 1;
  // CHECK: if (cudaMemcpyToSymbol(coef, h, sizeof h) != cudaSuccess) return 1;
  hipLaunchKernelGGL(HIP_KERNEL_NAME(scale<float, 4>), dim3((n + 255) / 256), dim3(256), 0, 0, 2.0f, x, y, n);
  // CHECK: scale<float, 4><<<dim3((n + 255) / 256), dim3(256)>>>(2.0f, x, y, n);
  hipLaunchKernelGGL(plain, dim3(1), dim3(64), 128, stream, y);
  // CHECK: plain<<<dim3(1), dim3(64), 128, stream>>>(y);
  hipLaunchKernelGGL(plain, 1, 32, 0, stream, /* output */ y);
  // CHECK: plain<<<1, 32, 0, stream>>>(/* output */y);
  return hipDeviceSynchronize() == hipSuccess ? 0 : 1;
  // CHECK: return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
// CHECK-NOT: hipLaunchKernelGGL
// CHECK-NOT: HIP_
// REPORT: 0 errors, 0 warnings
