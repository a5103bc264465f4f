// A user macro whose name starts with "cuda" (cudaCheck, CUDA_CHECK) is the user's: its
// name and its uses are kept, while the API calls in its body and arguments are translated.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>
#include <cstdio>

#define cudaCheck(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) std::printf("%s\n", cudaGetErrorString(e_)); } while (0)
// CHECK: {{^}}#define cudaCheck(x) do { hipError_t e_ = (x); if (e_ != hipSuccess) std::printf("%s\n", hipGetErrorString(e_)); } while (0){{$}}

void run(void** p) {
  cudaCheck(cudaMalloc(p, 64));
  // CHECK: {{^}}  cudaCheck(hipMalloc(p, 64));
  cudaCheck(cudaDeviceSynchronize());
  // CHECK-NEXT: {{^}}  cudaCheck(hipDeviceSynchronize());
}
// REPORT: 0 errors, 0 warnings
