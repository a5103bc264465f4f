// Execution-space and memory-space qualifiers, __launch_bounds__ and the builtin index
// variables are spelled the same in HIP and stay unchanged.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

__constant__ float bias[4];
// CHECK: {{^}}__constant__ float bias[4];
__device__ __forceinline__ float twice(float x) { return 2.0f * x; }
// CHECK-NEXT: {{^}}__device__ __forceinline__ float twice(float x) { return 2.0f * x; }
__global__ void __launch_bounds__(256, 2) apply(float* __restrict__ p) {
  // CHECK-NEXT: {{^}}__global__ void __launch_bounds__(256, 2) apply(float* __restrict__ p) {
  __shared__ float tile[256];
  // CHECK-NEXT: {{^}}  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK-NEXT: {{^}}  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = twice(p[i]) + bias[gridDim.x % 4];
  // CHECK-NEXT: {{^}}  tile[threadIdx.x] = twice(p[i]) + bias[gridDim.x % 4];
}
// REPORT: 0 errors, 0 warnings
