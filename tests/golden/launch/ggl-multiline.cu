// --launch ggl: a launch whose arguments span several lines keeps the line breaks and the
// indentation of the arguments.
// RUN: %gpuport translate --launch ggl %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

__global__ void blend(const float* a, const float* b, float* out, float t, int n) {}

void run(const float* a, const float* b, float* out, int n) {
  blend<<<n / 256, 256>>>(a,
                          b,
                          out, 0.5f, n);
  // CHECK: {{^}}  hipLaunchKernelGGL(blend, dim3(n / 256), dim3(256), 0, 0, a,
  // CHECK-NEXT: {{^}}                          b,
  // CHECK-NEXT: {{^}}                          out, 0.5f, n);
}
// REPORT: 0 errors, 0 warnings
