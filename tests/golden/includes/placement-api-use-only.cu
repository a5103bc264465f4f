// A .cu file that calls the runtime API without including a CUDA header (nvcc includes it
// implicitly) gets the HIP runtime include too.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cstdlib>
void* grab(size_t n) { void* p; cudaMalloc(&p, n); return p; }
// CHECK: {{^}}#include <hip/hip_runtime.h>{{$}}
// CHECK-NEXT: {{^}}#include <cstdlib>{{$}}
// CHECK-NEXT: {{^}}void* grab(size_t n) { void* p; hipMalloc(&p, n); return p; }
// REPORT: 0 errors, 0 warnings
