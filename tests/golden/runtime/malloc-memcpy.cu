// Memory management calls, types and enumerators of the runtime API are renamed; the
// CUDA runtime include becomes the HIP one.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>
// CHECK: #include <hip/hip_runtime.h>

void copy(float* host, size_t n) {
  float* dev = nullptr;
  cudaError_t err = cudaMalloc(&dev, n * sizeof(float));
  // CHECK: hipError_t err = hipMalloc(&dev, n * sizeof(float));
  cudaMemcpy(dev, host, n * sizeof(float), cudaMemcpyHostToDevice);
  // CHECK-NEXT: hipMemcpy(dev, host, n * sizeof(float), hipMemcpyHostToDevice);
  cudaFree(dev);
  // CHECK-NEXT: hipFree(dev);
}
// REPORT: 1 files translated (1 changed, {{[0-9]+}} rewrites)
// REPORT-SAME: 0 errors, 0 warnings
