// API names inside string literals are text, not code: they are never renamed, including
// escaped quotes and adjacent literals.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>
#include <cstdio>

void log_failure(cudaError_t e) {
  std::printf("cudaMalloc failed: %s\n", cudaGetErrorString(e));
  // CHECK: {{^}}  std::printf("cudaMalloc failed: %s\n", hipGetErrorString(e));
  const char* msg = "\"cudaFree\" " "cudaStream_t cudaSuccess";
  // CHECK-NEXT: {{^}}  const char* msg = "\"cudaFree\" " "cudaStream_t cudaSuccess";
}
// REPORT: 0 errors, 0 warnings
