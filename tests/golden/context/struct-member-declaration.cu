// A user struct whose members are named like API functions: the member declarations are
// the user's and keep their names, matching the member accesses (which are kept).
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
#include <cuda_runtime.h>

struct Backend {
  int (*cudaMalloc)(void**, size_t);
  // CHECK: {{^}}  int (*cudaMalloc)(void**, size_t);
  cudaStream_t cudaStream;
  // CHECK-NEXT: {{^}}  hipStream_t cudaStream;
};

void f(Backend& b, void** d) { b.cudaMalloc(d, 16); }
// CHECK: {{^}}void f(Backend& b, void** d) { b.cudaMalloc(d, 16); }
