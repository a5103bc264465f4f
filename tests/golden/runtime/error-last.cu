// cudaGetLastError and cudaPeekAtLastError are renamed; the comparison with the success
// enumerator follows.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

bool launched_ok() {
  if (cudaPeekAtLastError() != cudaSuccess) return false;
  // CHECK: {{^}}  if (hipPeekAtLastError() != hipSuccess) return false;
  return cudaGetLastError() == cudaSuccess;
  // CHECK-NEXT: {{^}}  return hipGetLastError() == hipSuccess;
}
// REPORT: 0 errors, 0 warnings
