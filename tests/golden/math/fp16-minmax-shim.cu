// CUDA's half max/min become gpuport's shims (HIP 5.2 has none, HIP 6 only on __half), with the
// shim after the runtime include: no error. compile/half-min-max.cu runs them.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_fp16.h>
// CHECK: #if !defined(GPUPORT_HALF_MINMAX)

__device__ __half clamp(__half v, __half lo, __half hi) {
  return __hmin(__hmax(v, lo), hi);
  // CHECK: return gpuport_hmin(gpuport_hmax(v, lo), hi);
}
// REPORT-NOT: unsupported-api
// REPORT: 0 errors, 0 warnings
