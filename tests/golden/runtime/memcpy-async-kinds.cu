// Asynchronous copies, the copy-kind type and all its enumerators are renamed.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

void copy(void* dst, const void* src, size_t n, cudaStream_t s, bool up) {
  cudaMemcpyKind kind = up ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
  // CHECK: {{^}}  hipMemcpyKind kind = up ? hipMemcpyHostToDevice : hipMemcpyDeviceToHost;
  cudaMemcpyAsync(dst, src, n, kind, s);
  // CHECK-NEXT: {{^}}  hipMemcpyAsync(dst, src, n, kind, s);
  cudaMemcpyAsync(dst, src, n, cudaMemcpyDefault, s);
  // CHECK-NEXT: {{^}}  hipMemcpyAsync(dst, src, n, hipMemcpyDefault, s);
  cudaMemcpy(dst, src, n, cudaMemcpyDeviceToDevice);
  // CHECK-NEXT: {{^}}  hipMemcpy(dst, src, n, hipMemcpyDeviceToDevice);
  cudaMemcpy(dst, src, n, cudaMemcpyHostToHost);
  // CHECK-NEXT: {{^}}  hipMemcpy(dst, src, n, hipMemcpyHostToHost);
}
// REPORT: 0 errors, 0 warnings
