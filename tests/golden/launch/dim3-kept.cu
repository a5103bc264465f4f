// dim3 is HIP's type too: declarations and field accesses are untouched.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

__global__ void k(int* p) {}

void run(int* p, int w, int h) {
  dim3 block(16, 16);
  // CHECK: {{^}}  dim3 block(16, 16);
  dim3 grid((w + block.x - 1) / block.x, (h + block.y - 1) / block.y, 1);
  // CHECK-NEXT: {{^}}  dim3 grid((w + block.x - 1) / block.x, (h + block.y - 1) / block.y, 1);
  k<<<grid, block>>>(p);
  // CHECK-NEXT: {{^}}  k<<<grid, block>>>(p);
}
// REPORT: 0 errors, 0 warnings
