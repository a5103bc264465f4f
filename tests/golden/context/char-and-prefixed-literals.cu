// Character literals and prefixed string literals (u8, L, u, U) are left alone.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

void literals() {
  char q = '"';
  // CHECK: {{^}}  char q = '"';
  auto a = u8"cudaFree"; auto b = L"cudaMalloc"; auto c = u"cudaMemcpy"; auto d = U"cudaSuccess";
  // CHECK-NEXT: {{^}}  auto a = u8"cudaFree"; auto b = L"cudaMalloc"; auto c = u"cudaMemcpy"; auto d = U"cudaSuccess";
  cudaDeviceSynchronize();
  // CHECK-NEXT: {{^}}  hipDeviceSynchronize();
}
// REPORT: 0 errors, 0 warnings
