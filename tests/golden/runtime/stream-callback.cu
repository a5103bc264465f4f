// Stream callbacks: the registration call is renamed and the callback's parameter types
// (stream and error) follow; the callback itself is user code and keeps its name.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

static void on_done(cudaStream_t stream, cudaError_t status, void* user) {}
// CHECK: {{^}}static void on_done(hipStream_t stream, hipError_t status, void* user) {}

void watch(cudaStream_t s, int* flag) {
  cudaStreamAddCallback(s, on_done, flag, 0);
  // CHECK: {{^}}  hipStreamAddCallback(s, on_done, flag, 0);
  cudaStreamCallback_t cb = on_done;
  // CHECK-NEXT: {{^}}  hipStreamCallback_t cb = on_done;
}
// REPORT: 0 errors, 0 warnings
