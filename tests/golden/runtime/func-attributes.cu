// cudaFuncGetAttributes(attr, kernel): HIP 5.2 has no template overload, so the kernel is
// passed through reinterpret_cast<const void*>; the attribute struct's fields keep their names.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

__global__ void scale(float* p, float s) { p[threadIdx.x] *= s; }

int max_threads() {
  cudaFuncAttributes attr;
  // CHECK: {{^}}  hipFuncAttributes attr;
  cudaFuncGetAttributes(&attr, scale);
  // CHECK-NEXT: {{^}}  hipFuncGetAttributes(&attr, reinterpret_cast<const void*>(scale));
  return attr.maxThreadsPerBlock + attr.numRegs + (int)attr.sharedSizeBytes;
  // CHECK-NEXT: {{^}}  return attr.maxThreadsPerBlock + attr.numRegs + (int)attr.sharedSizeBytes;
}
// REPORT: 0 errors, 0 warnings
