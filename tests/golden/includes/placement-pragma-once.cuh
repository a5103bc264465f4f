#pragma once
// A header with device code and no CUDA include gets the HIP runtime include right after
// #pragma once.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
__device__ inline float sq(float x) { return x * x; }
// CHECK: {{^}}#pragma once{{$}}
// CHECK-NEXT: {{^}}#include <hip/hip_runtime.h>{{$}}
// CHECK-NEXT: {{^}}// A header with device code
// CHECK: {{^}}__device__ inline float sq(float x) { return x * x; }
// REPORT: 0 errors, 0 warnings
