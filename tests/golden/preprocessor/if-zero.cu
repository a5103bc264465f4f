// Regions disabled with #if 0 are still source and are translated, so re-enabling them
// later gives HIP code.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

void debug_dump(float* dev, float* host, size_t n) {
#if 0
  cudaMemcpy(host, dev, n, cudaMemcpyDeviceToHost);
  // CHECK: {{^}}#if 0{{$}}
  // CHECK-NEXT: {{^}}  hipMemcpy(host, dev, n, hipMemcpyDeviceToHost);
#endif
}
// REPORT: 0 errors, 0 warnings
