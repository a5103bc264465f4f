// cudaEventCreate has a one-argument C function and a two-argument C++ overload with flags.
// HIP's hipEventCreate takes one argument only, so the two-argument form becomes
// hipEventCreateWithFlags; the one-argument form stays hipEventCreate.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

void make(cudaEvent_t* a, cudaEvent_t* b, cudaEvent_t* c) {
  // CHECK: {{^}}void make(hipEvent_t* a, hipEvent_t* b, hipEvent_t* c) {
  cudaEventCreate(a);
  // CHECK-NEXT: {{^}}  hipEventCreate(a);
  cudaEventCreate(b, cudaEventDisableTiming);
  // CHECK-NEXT: {{^}}  hipEventCreateWithFlags(b, hipEventDisableTiming);
  cudaEventCreateWithFlags(c, cudaEventBlockingSync | cudaEventDisableTiming);
  // CHECK-NEXT: {{^}}  hipEventCreateWithFlags(c, hipEventBlockingSync | hipEventDisableTiming);
}
// REPORT: 0 errors, 0 warnings
