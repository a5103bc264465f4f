// A launch inside a macro body is kept by default, and so are the macro's uses.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

__global__ void step(float* p) {}
#define LAUNCH_STEP(p, n) step<<<(n) / 256, 256>>>(p)
// CHECK: {{^}}#define LAUNCH_STEP(p, n) step<<<(n) / 256, 256>>>(p)

void run(float* p, int n) { LAUNCH_STEP(p, n); }
// CHECK: {{^}}void run(float* p, int n) { LAUNCH_STEP(p, n); }
// REPORT: 0 errors, 0 warnings
