// When the file includes a CUDA runtime header, the HIP runtime include takes its place
// rather than being added again at the top.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
__global__ void k(float* p) {}
// CHECK: {{^}}#include <cstdio>
// CHECK-NEXT: {{^}}#include <vector>
// CHECK-NEXT: {{^}}#include <hip/hip_runtime.h>
// CHECK-NEXT: {{^}}__global__ void k(float* p) {}
// CHECK-NOT: #include
// REPORT: 0 errors, 0 warnings
