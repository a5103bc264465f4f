// Only whole identifiers are renamed: names that merely contain an API name as a prefix,
// suffix or infix are different identifiers and are kept.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

void f() {
  int cudaMallocCount = 0, my_cudaFree = 1, xcudaStream_t = 2;
  // CHECK: {{^}}  int cudaMallocCount = 0, my_cudaFree = 1, xcudaStream_t = 2;
  int n = cudaSuccess + cudaMallocCount;
  // CHECK-NEXT: {{^}}  int n = hipSuccess + cudaMallocCount;
}
// REPORT: 0 errors, 0 warnings
