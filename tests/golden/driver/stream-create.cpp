// cuStreamCreate(&s, flags) always takes flags: it becomes hipStreamCreateWithFlags, the
// CUstream type becomes hipStream_t and the CU_STREAM_* flags their hipStream* twins.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda.h>

void streams() {
  CUstream a, b;
  // CHECK: {{^}}  hipStream_t a, b;
  cuStreamCreate(&a, CU_STREAM_DEFAULT);
  // CHECK-NEXT: {{^}}  hipStreamCreateWithFlags(&a, hipStreamDefault);
  cuStreamCreate(&b, CU_STREAM_NON_BLOCKING);
  // CHECK-NEXT: {{^}}  hipStreamCreateWithFlags(&b, hipStreamNonBlocking);
}
// REPORT: 0 errors, 0 warnings
