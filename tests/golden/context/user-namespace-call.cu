// A name qualified by a user namespace (mylib::cudaMalloc) or std:: is the user's, not the
// API, and is kept.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>
#include "mylib.h"

void f(void* d) {
  mylib::cudaMalloc(&d, 4);
  // CHECK: {{^}}  mylib::cudaMalloc(&d, 4);
  mylib::detail::cudaFree(d);
  // CHECK-NEXT: {{^}}  mylib::detail::cudaFree(d);
  cudaFree(d);
  // CHECK-NEXT: {{^}}  hipFree(d);
}
// REPORT: 0 errors, 0 warnings
