// The asynchronous symbol copies wrap the same argument as their synchronous forms.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

__constant__ int table[8];

void roundtrip(int* host, cudaStream_t s) {
  cudaMemcpyToSymbolAsync(table, host, sizeof(table), 0, cudaMemcpyHostToDevice, s);
  // CHECK: {{^}}  hipMemcpyToSymbolAsync(HIP_SYMBOL(table), host, sizeof(table), 0, hipMemcpyHostToDevice, s);
  cudaMemcpyFromSymbolAsync(host, table, sizeof(table), 0, cudaMemcpyDeviceToHost, s);
  // CHECK-NEXT: {{^}}  hipMemcpyFromSymbolAsync(host, HIP_SYMBOL(table), sizeof(table), 0, hipMemcpyDeviceToHost, s);
}
// REPORT: 0 errors, 0 warnings
