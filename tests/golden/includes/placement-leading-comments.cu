// A .cu file with device code but no CUDA include (nvcc includes the runtime implicitly)
// gets the HIP runtime include after its leading comment block, before the first line of
// code or preprocessor directive.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

#include <cstdio>
__global__ void k() {}
// CHECK: {{^}}// gets the HIP runtime include after its leading comment block
// CHECK: {{^}}#include <hip/hip_runtime.h>{{$}}
// CHECK-NEXT: {{^}}#include <cstdio>{{$}}
// CHECK-NEXT: {{^}}__global__ void k() {}
// REPORT: 0 errors, 0 warnings
