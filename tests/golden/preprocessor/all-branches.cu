// Code in every branch of a conditional is translated, whichever branch a compiler would
// take: #if, #elif and #else bodies alike.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

void sync_all(cudaStream_t s) {
#if defined(USE_STREAMS)
  cudaStreamSynchronize(s);
  // CHECK: {{^}}  hipStreamSynchronize(s);
#elif defined(USE_EVENTS)
  cudaEvent_t e;
  // CHECK: {{^}}  hipEvent_t e;
#else
  cudaDeviceSynchronize();
  // CHECK: {{^}}  hipDeviceSynchronize();
#endif
}
// REPORT: 0 errors, 0 warnings
