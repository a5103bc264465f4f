// Device-side printf works in HIP unchanged, format string and all; the kernel needs only the
// HIP runtime include, which is added.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cstdio>
// CHECK: #include <hip/hip_runtime.h>
// CHECK: #include <cstdio>

__global__ void hello(int n) {
  printf("block %d thread %d of %d: n=%d\n", blockIdx.x, threadIdx.x, blockDim.x, n);
  // CHECK: printf("block %d thread %d of %d: n=%d\n", blockIdx.x, threadIdx.x, blockDim.x, n);
}
// REPORT: 0 errors, 0 warnings
