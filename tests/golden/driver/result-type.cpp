// CUresult is the driver API's error type; HIP uses hipError_t for both APIs.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda.h>

CUresult start() {
  // CHECK: {{^}}hipError_t start() {
  CUresult r = cuInit(0);
  // CHECK-NEXT: {{^}}  hipError_t r = hipInit(0);
  return r;
}
// REPORT: 0 errors, 0 warnings
