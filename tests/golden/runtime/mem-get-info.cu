// cudaMemGetInfo is renamed; the out-parameters are untouched.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

size_t free_bytes() {
  size_t free_mem = 0, total_mem = 0;
  cudaMemGetInfo(&free_mem, &total_mem);
  // CHECK: {{^}}  hipMemGetInfo(&free_mem, &total_mem);
  return free_mem;
}
// REPORT: 0 errors, 0 warnings
