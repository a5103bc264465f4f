#ifndef SQUARE_KERNELS_H
#define SQUARE_KERNELS_H
// A header protected by an include guard gets the HIP runtime include inside the guard,
// right after the #define.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
__global__ void square(float* p);
#endif
// CHECK: {{^}}#ifndef SQUARE_KERNELS_H{{$}}
// CHECK-NEXT: {{^}}#define SQUARE_KERNELS_H{{$}}
// CHECK-NEXT: {{^}}#include <hip/hip_runtime.h>{{$}}
// CHECK: {{^}}__global__ void square(float* p);
// CHECK-NEXT: {{^}}#endif
// REPORT: 0 errors, 0 warnings
