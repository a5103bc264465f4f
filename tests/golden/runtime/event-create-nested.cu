// The argument count that selects hipEventCreateWithFlags is counted at the top level of
// the call: commas inside nested calls or template arguments do not count.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
#include <cuda_runtime.h>

cudaEvent_t* slot(int a, int b);

void make() {
  cudaEventCreate(slot(1, 2));
  // CHECK: {{^}}  hipEventCreate(slot(1, 2));
  cudaEventCreate(slot(3, 4), flags_of(5, 6));
  // CHECK-NEXT: {{^}}  hipEventCreateWithFlags(slot(3, 4), flags_of(5, 6));
}
