// Driver result enumerators map to the hipError_t enumerators.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
#include <cuda.h>

int code(int r) {
  if (r == CUDA_SUCCESS) return 0;
  // CHECK: {{^}}  if (r == hipSuccess) return 0;
  if (r == CUDA_ERROR_INVALID_VALUE) return 1;
  // CHECK-NEXT: {{^}}  if (r == hipErrorInvalidValue) return 1;
  return 2;
}
