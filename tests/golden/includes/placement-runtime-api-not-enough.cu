// A .cu file with device code that includes only the runtime API header (host
// declarations) maps that include and still needs the full runtime for its kernel; the
// HIP runtime include is placed where the CUDA include was, and the API header stays.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime_api.h>
__global__ void k(float* p) { p[threadIdx.x] = 1.0f; }
// CHECK: {{^}}#include <hip/hip_runtime.h>{{$}}
// CHECK-NEXT: {{^}}#include <hip/hip_runtime_api.h>{{$}}
// CHECK-NEXT: {{^}}__global__ void k
// REPORT: 0 errors, 0 warnings
