// Raw string literals, even ones containing quotes, parentheses and API names, are kept
// byte for byte, and the code after them is translated again.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

const char* kSource = R"src(
  cudaMalloc(&p, n); "cudaFree(p)" )"
)src";
// CHECK: {{^}}const char* kSource = R"src({{$}}
// CHECK-NEXT: {{^}}  cudaMalloc(&p, n); "cudaFree(p)" )"{{$}}
// CHECK-NEXT: {{^}})src";{{$}}
void after() { cudaDeviceSynchronize(); }
// CHECK: {{^}}void after() { hipDeviceSynchronize(); }
// REPORT: 0 errors, 0 warnings
