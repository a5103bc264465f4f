// --launch ggl: '>>' closing nested template arguments inside the launch arguments does not
// end the launch configuration early.
// RUN: %gpuport translate --launch ggl %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

template <typename T> struct Box { T v; };
template <typename T> __global__ void take(Box<Box<T>> b) {}

void run() {
  take<int><<<1, 32>>>(Box<Box<int>>{});
  // CHECK: {{^}}  hipLaunchKernelGGL(HIP_KERNEL_NAME(take<int>), dim3(1), dim3(32), 0, 0, Box<Box<int>>{});
}
// REPORT: 0 errors, 0 warnings
