// API names in // comments are not code and are copied unchanged, also after code on the
// same line.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

void f(void* p) {
  // free with cudaFree, not free()
  // CHECK: {{^}}  // free with cudaFree, not free()
  cudaFree(p);  // cudaFree returns cudaError_t
  // CHECK-NEXT: {{^}}  hipFree(p);  // cudaFree returns cudaError_t
}
// REPORT: 0 errors, 0 warnings
