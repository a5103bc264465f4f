// --launch ggl: a configuration that already is a dim3(...) expression is passed as it is,
// never as dim3(dim3(...)).
// RUN: %gpuport translate --launch ggl %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

__global__ void tile(float* p) {}

void run(float* p, int w, int h) {
  tile<<<dim3(w / 16, h / 16), dim3(16, 16)>>>(p);
  // CHECK: {{^}}  hipLaunchKernelGGL(tile, dim3(w / 16, h / 16), dim3(16, 16), 0, 0, p);
}
// CHECK-NOT: dim3(dim3
// REPORT: 0 errors, 0 warnings
