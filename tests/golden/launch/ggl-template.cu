// --launch ggl: a template kernel's name contains commas, so it is wrapped in
// HIP_KERNEL_NAME() to survive the hipLaunchKernelGGL macro.
// RUN: %gpuport translate --launch ggl %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

template <typename T, int N> __global__ void scale(T* p, T s) {}

void run(float* p, dim3 grid, dim3 block, cudaStream_t st) {
  scale<float, 4><<<grid, block, 0, st>>>(p, 2.0f);
  // CHECK: {{^}}  hipLaunchKernelGGL(HIP_KERNEL_NAME(scale<float, 4>), dim3(grid), dim3(block), 0, st, p, 2.0f);
}
// REPORT: 0 errors, 0 warnings
