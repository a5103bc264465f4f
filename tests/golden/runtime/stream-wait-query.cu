// Cross-stream waits and non-blocking stream queries are renamed, with the not-ready code.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

bool chain(cudaStream_t producer, cudaStream_t consumer, cudaEvent_t done) {
  cudaEventRecord(done, producer);
  // CHECK: {{^}}  hipEventRecord(done, producer);
  cudaStreamWaitEvent(consumer, done, 0);
  // CHECK-NEXT: {{^}}  hipStreamWaitEvent(consumer, done, 0);
  return cudaStreamQuery(consumer) != cudaErrorNotReady;
  // CHECK-NEXT: {{^}}  return hipStreamQuery(consumer) != hipErrorNotReady;
}
// REPORT: 0 errors, 0 warnings
