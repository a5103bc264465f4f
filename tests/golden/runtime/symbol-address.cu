// cudaGetSymbolAddress and cudaGetSymbolSize take the symbol second: it is wrapped in
// HIP_SYMBOL(), whatever cast the first argument carries.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

__device__ float accum[256];

float* address() {
  float* p = nullptr;
  size_t bytes = 0;
  cudaGetSymbolAddress((void**)&p, accum);
  // CHECK: {{^}}  hipGetSymbolAddress((void**)&p, HIP_SYMBOL(accum));
  cudaGetSymbolSize(&bytes, accum);
  // CHECK-NEXT: {{^}}  hipGetSymbolSize(&bytes, HIP_SYMBOL(accum));
  return p;
}
// REPORT: 0 errors, 0 warnings
