// Managed allocations keep their argument count: HIP has the optional flags argument too.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

void alloc(float** a, float** b, size_t n) {
  cudaMallocManaged(a, n * sizeof(float));
  // CHECK: {{^}}  hipMallocManaged(a, n * sizeof(float));
  cudaMallocManaged(b, n * sizeof(float), cudaMemAttachHost);
  // CHECK-NEXT: {{^}}  hipMallocManaged(b, n * sizeof(float), hipMemAttachHost);
  cudaMallocManaged((void**)a, n, cudaMemAttachGlobal);
  // CHECK-NEXT: {{^}}  hipMallocManaged((void**)a, n, hipMemAttachGlobal);
}
// REPORT: 0 errors, 0 warnings
