// Synchronous and stream-ordered memsets are renamed; a literal 0 stream stays 0.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

void clear(int* dev, size_t n, cudaStream_t stream) {
  cudaMemset(dev, 0, n * sizeof(int));
  // CHECK: {{^}}  hipMemset(dev, 0, n * sizeof(int));
  cudaMemsetAsync(dev, 0xff, n, stream);
  // CHECK-NEXT: {{^}}  hipMemsetAsync(dev, 0xff, n, stream);
  cudaMemsetAsync(dev, 0, n, 0);
  // CHECK-NEXT: {{^}}  hipMemsetAsync(dev, 0, n, 0);
}
// REPORT: 0 errors, 0 warnings
