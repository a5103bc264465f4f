// A template kernel's instance as an argument keeps its template arguments together: the comma
// in kernel<A, B> splits no call argument, so the whole instance is wrapped
// (cudaFuncGetAttributes(&a, kernel<A, B>) was split at that comma). cudaFuncSetSharedMemConfig
// gets the const void* cast HIP needs too.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
#include <cuda_runtime.h>
template <typename A, int B>
__global__ void kernel(A* p) {}
void query(cudaFuncAttributes* a) {
  cudaFuncGetAttributes(a, kernel<float, 4>);
  // CHECK: {{^}}  hipFuncGetAttributes(a, reinterpret_cast<const void*>(kernel<float, 4>));
  cudaFuncSetSharedMemConfig(kernel<int, 2>, cudaSharedMemBankSizeFourByte);
  // CHECK-NEXT: {{^}}  hipFuncSetSharedMemConfig(reinterpret_cast<const void*>(kernel<int, 2>), hipSharedMemBankSizeFourByte);
}
