// cudaStreamCreateWithFlags and its flag constants are renamed.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

void make(cudaStream_t* a, cudaStream_t* b) {
  cudaStreamCreateWithFlags(a, cudaStreamNonBlocking);
  // CHECK: {{^}}  hipStreamCreateWithFlags(a, hipStreamNonBlocking);
  cudaStreamCreateWithFlags(b, cudaStreamDefault);
  // CHECK-NEXT: {{^}}  hipStreamCreateWithFlags(b, hipStreamDefault);
}
// REPORT: 0 errors, 0 warnings
