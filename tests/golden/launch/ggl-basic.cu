// --launch ggl rewrites a two-argument launch as hipLaunchKernelGGL(kernel, dim3(grid),
// dim3(block), 0, 0, args...): shared memory and stream default to 0.
// RUN: %gpuport translate --launch ggl %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

__global__ void saxpy(float a, const float* x, float* y, int n) {}

void run(const float* x, float* y, int n) {
  saxpy<<<(n + 255) / 256, 256>>>(2.0f, x, y, n);
  // CHECK: {{^}}  hipLaunchKernelGGL(saxpy, dim3((n + 255) / 256), dim3(256), 0, 0, 2.0f, x, y, n);
}
// CHECK-NOT: <<<
// REPORT: 0 errors, 0 warnings
