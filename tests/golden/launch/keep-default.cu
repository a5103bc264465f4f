// By default <<<>>> launches are kept as written: HIP compiles the triple-chevron syntax.
// Two-, three- and four-argument configurations are all left byte for byte, with no note.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

__global__ void add(float* a, const float* b, int n) {}

void run(float* a, const float* b, int n, cudaStream_t s) {
  add<<<(n + 255) / 256, 256>>>(a, b, n);
  // CHECK: {{^}}  add<<<(n + 255) / 256, 256>>>(a, b, n);
  add<<<n / 128, 128, 128 * sizeof(float)>>>(a, b, n);
  // CHECK-NEXT: {{^}}  add<<<n / 128, 128, 128 * sizeof(float)>>>(a, b, n);
  add<<<n / 64, 64, 0, s>>>(a, b, n);
  // CHECK-NEXT: {{^}}  add<<<n / 64, 64, 0, s>>>(a, b, n);
}
// CHECK-NOT: hipLaunchKernelGGL
// REPORT: 0 errors, 0 warnings, 0 notes
