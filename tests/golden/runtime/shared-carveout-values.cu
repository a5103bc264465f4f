// cudaSharedmemCarveout* have no HIP names: they become the values CUDA gives them (-1, 0,
// 100), the percentages hipFuncSetAttribute takes for hipFuncAttributePreferredSharedMemoryCarveout.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>
__global__ void k() {}
int main() {
  cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout, cudaSharedmemCarveoutMaxShared);
  // CHECK: hipFuncSetAttribute(reinterpret_cast<const void*>(k), hipFuncAttributePreferredSharedMemoryCarveout, 100);
  int carveouts[] = {cudaSharedmemCarveoutDefault, cudaSharedmemCarveoutMaxL1};
  // CHECK: int carveouts[] = {(-1), 0};
  return carveouts[0];
}
// REPORT: 0 errors
