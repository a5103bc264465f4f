// A stream's whole life: type, creation, synchronisation and destruction are renamed.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

void run() {
  cudaStream_t stream;
  // CHECK: {{^}}  hipStream_t stream;
  cudaStreamCreate(&stream);
  // CHECK-NEXT: {{^}}  hipStreamCreate(&stream);
  cudaStreamSynchronize(stream);
  // CHECK-NEXT: {{^}}  hipStreamSynchronize(stream);
  cudaStreamDestroy(stream);
  // CHECK-NEXT: {{^}}  hipStreamDestroy(stream);
}
// REPORT: 0 errors, 0 warnings
