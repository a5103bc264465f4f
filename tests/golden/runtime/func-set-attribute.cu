// cudaFuncSetAttribute(kernel, attr, value): the kernel is wrapped, the attribute renamed,
// the value untouched.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

__global__ void big_smem(float* p) {}

void allow_smem(int bytes) {
  cudaFuncSetAttribute(big_smem, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
  // CHECK: {{^}}  hipFuncSetAttribute(reinterpret_cast<const void*>(big_smem), hipFuncAttributeMaxDynamicSharedMemorySize, bytes);
}
// REPORT: 0 errors, 0 warnings
