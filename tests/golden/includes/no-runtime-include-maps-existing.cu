// --no-runtime-include only stops adding the include: an existing CUDA include is still
// mapped to its HIP header.
// RUN: %gpuport translate --no-runtime-include %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>
__global__ void k(float* p) {}
// CHECK: {{^}}#include <hip/hip_runtime.h>{{$}}
// CHECK-NEXT: {{^}}__global__ void k(float* p) {}
// REPORT: 0 errors, 0 warnings
