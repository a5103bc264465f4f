// --no-runtime-include: device code alone does not pull in the HIP runtime include.
// RUN: %gpuport translate --no-runtime-include %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cstdio>
__global__ void k(float* p) { p[threadIdx.x] = 0.0f; }
// CHECK: {{^}}#include <cstdio>{{$}}
// CHECK-NEXT: {{^}}__global__ void k(float* p) { p[threadIdx.x] = 0.0f; }
// CHECK-NOT: hip_runtime
// REPORT: 0 errors, 0 warnings
