// --launch ggl: the third launch argument is the dynamic shared-memory size and the fourth
// the stream; they fill the corresponding hipLaunchKernelGGL slots, missing ones become 0.
// RUN: %gpuport translate --launch ggl %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

__global__ void reduce(const float* in, float* out) {}

void run(const float* in, float* out, int blocks, cudaStream_t s) {
  reduce<<<blocks, 256, 256 * sizeof(float)>>>(in, out);
  // CHECK: {{^}}  hipLaunchKernelGGL(reduce, dim3(blocks), dim3(256), 256 * sizeof(float), 0, in, out);
  reduce<<<blocks, 256, 0, s>>>(in, out);
  // CHECK-NEXT: {{^}}  hipLaunchKernelGGL(reduce, dim3(blocks), dim3(256), 0, s, in, out);
}
// REPORT: 0 errors, 0 warnings
