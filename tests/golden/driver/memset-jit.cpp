// Driver memsets and the JIT option type are renamed.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda.h>

void fill(CUdeviceptr p, size_t n) {
  cuMemsetD32(p, 0x3f800000u, n);
  // CHECK: {{^}}  hipMemsetD32(p, 0x3f800000u, n);
  CUjit_option opts[1];
  // CHECK-NEXT: {{^}}  hipJitOption opts[1];
}
// REPORT: 0 errors, 0 warnings
