// Device enumeration and selection calls are renamed one for one; their arguments are kept.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

int pick() {
  int count = 0, current = -1;
  cudaGetDeviceCount(&count);
  // CHECK: {{^}}  hipGetDeviceCount(&count);
  cudaSetDevice(count - 1);
  // CHECK-NEXT: {{^}}  hipSetDevice(count - 1);
  cudaGetDevice(&current);
  // CHECK-NEXT: {{^}}  hipGetDevice(&current);
  return current;
}
// CHECK-NOT: cuda
// REPORT: 0 errors, 0 warnings
