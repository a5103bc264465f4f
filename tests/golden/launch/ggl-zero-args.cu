// --launch ggl: a kernel without parameters gets no trailing comma after the stream slot.
// RUN: %gpuport translate --launch ggl %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

__global__ void tick() {}

void run() {
  tick<<<1, 1>>>();
  // CHECK: {{^}}  hipLaunchKernelGGL(tick, dim3(1), dim3(1), 0, 0);
}
// REPORT: 0 errors, 0 warnings
