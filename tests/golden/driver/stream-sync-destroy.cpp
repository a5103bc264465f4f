// Driver stream synchronisation and destruction map to the runtime's hipStream* calls.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda.h>

void finish(CUstream s) {
  // CHECK: {{^}}void finish(hipStream_t s) {
  cuStreamSynchronize(s);
  // CHECK-NEXT: {{^}}  hipStreamSynchronize(s);
  cuStreamDestroy(s);
  // CHECK-NEXT: {{^}}  hipStreamDestroy(s);
}
// REPORT: 0 errors, 0 warnings
