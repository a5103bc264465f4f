// Timing with events: record, synchronise, elapsed time and destroy are renamed.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

float time_it(cudaStream_t s) {
  cudaEvent_t start, stop;
  // CHECK: {{^}}  hipEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start, s);
  // CHECK: {{^}}  hipEventRecord(start, s);
  cudaEventRecord(stop);
  // CHECK-NEXT: {{^}}  hipEventRecord(stop);
  cudaEventSynchronize(stop);
  // CHECK-NEXT: {{^}}  hipEventSynchronize(stop);
  float ms = 0.0f;
  cudaEventElapsedTime(&ms, start, stop);
  // CHECK-NEXT: {{^}}  float ms = 0.0f;
  // CHECK-NEXT: {{^}}  hipEventElapsedTime(&ms, start, stop);
  cudaEventDestroy(start);
  // CHECK-NEXT: {{^}}  hipEventDestroy(start);
  return ms;
}
// REPORT: 0 errors, 0 warnings
