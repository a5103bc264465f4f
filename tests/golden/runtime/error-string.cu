// The error type and the functions that describe an error are renamed; the format
// string that mentions the CUDA name is text and stays as written.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>
#include <cstdio>

void explain(cudaError_t err) {
  // CHECK: {{^}}void explain(hipError_t err) {
  fprintf(stderr, "cudaError_t %s: %s\n", cudaGetErrorName(err), cudaGetErrorString(err));
  // CHECK-NEXT: {{^}}  fprintf(stderr, "cudaError_t %s: %s\n", hipGetErrorName(err), hipGetErrorString(err));
}
// REPORT: 0 errors, 0 warnings
