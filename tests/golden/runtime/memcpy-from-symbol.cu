// cudaMemcpyFromSymbol's symbol is its second argument: that one is wrapped in HIP_SYMBOL(),
// the destination is not.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

__device__ unsigned long long hits[4];

void download(unsigned long long* host) {
  cudaMemcpyFromSymbol(host, hits, sizeof(hits));
  // CHECK: {{^}}  hipMemcpyFromSymbol(host, HIP_SYMBOL(hits), sizeof(hits));
  cudaMemcpyFromSymbol(host + 2, hits, 2 * sizeof(unsigned long long), 2 * sizeof(unsigned long long), cudaMemcpyDeviceToHost);
  // CHECK-NEXT: {{^}}  hipMemcpyFromSymbol(host + 2, HIP_SYMBOL(hits), 2 * sizeof(unsigned long long), 2 * sizeof(unsigned long long), hipMemcpyDeviceToHost);
}
// REPORT: 0 errors, 0 warnings
