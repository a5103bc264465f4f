// cudaMemcpyToSymbol's first argument is a device symbol; HIP needs it wrapped in
// HIP_SYMBOL() to stay portable to HIP's NVIDIA platform. The other arguments are untouched.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

__constant__ float coeffs[16];
__device__ int counter;

void upload(const float* host) {
  cudaMemcpyToSymbol(coeffs, host, 16 * sizeof(float));
  // CHECK: {{^}}  hipMemcpyToSymbol(HIP_SYMBOL(coeffs), host, 16 * sizeof(float));
  int zero = 0;
  cudaMemcpyToSymbol(counter, &zero, sizeof(int), 0, cudaMemcpyHostToDevice);
  // CHECK: {{^}}  hipMemcpyToSymbol(HIP_SYMBOL(counter), &zero, sizeof(int), 0, hipMemcpyHostToDevice);
}
// CHECK-NOT: HIP_SYMBOL(HIP_SYMBOL
// REPORT: 0 errors, 0 warnings
