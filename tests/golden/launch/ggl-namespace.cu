// --launch ggl: a namespace-qualified kernel name is passed with its qualification and
// without HIP_KERNEL_NAME (it has no commas).
// RUN: %gpuport translate --launch ggl %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

namespace ops { __global__ void negate(int* p) {} }

void run(int* p) {
  ops::negate<<<4, 64>>>(p);
  // CHECK: {{^}}  hipLaunchKernelGGL(ops::negate, dim3(4), dim3(64), 0, 0, p);
}
// CHECK-NOT: HIP_KERNEL_NAME
// REPORT: 0 errors, 0 warnings
