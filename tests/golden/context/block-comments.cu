// API names in /* */ comments, single- and multi-line, are copied unchanged; code on the
// same line outside the comment is translated.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

void f(void* p) {
  /* cudaMalloc'd by the caller;
     cudaFree it here */
  // CHECK: {{^}}  /* cudaMalloc'd by the caller;
  // CHECK-NEXT: {{^}}     cudaFree it here */
  /* cudaFree */ cudaFree(p); /* cudaSuccess */
  // CHECK-NEXT: {{^}}  /* cudaFree */ hipFree(p); /* cudaSuccess */
}
// REPORT: 0 errors, 0 warnings
