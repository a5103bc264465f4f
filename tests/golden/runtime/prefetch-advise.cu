// Unified-memory hints: prefetch and advise calls, the advice enumerators and the CPU
// device id are renamed.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

void hint(float* data, size_t bytes, int dev, cudaStream_t s) {
  cudaMemAdvise(data, bytes, cudaMemAdviseSetReadMostly, dev);
  // CHECK: {{^}}  hipMemAdvise(data, bytes, hipMemAdviseSetReadMostly, dev);
  cudaMemPrefetchAsync(data, bytes, dev, s);
  // CHECK-NEXT: {{^}}  hipMemPrefetchAsync(data, bytes, dev, s);
  cudaMemPrefetchAsync(data, bytes, cudaCpuDeviceId, s);
  // CHECK-NEXT: {{^}}  hipMemPrefetchAsync(data, bytes, hipCpuDeviceId, s);
}
// REPORT: 0 errors, 0 warnings
