// HIP 5.2 has no half max/min: __hmax, __hmin and their half2 forms are unsupported-api
// errors whose fix suggests comparing with __hgt/__hlt.
// RUN: not %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_fp16.h>

__device__ __half clamp(__half v, __half lo, __half hi) {
  return __hmin(__hmax(v, lo), hi);
  // CHECK: return __hmin(__hmax(v, lo), hi);
}
// REPORT: fp16-minmax-unsupported.cu:8:10: error: '__hmin' (fp16) has no HIP equivalent [unsupported-api]
// REPORT-NEXT: fix: {{.*}}__hgt/__hlt
// REPORT: fp16-minmax-unsupported.cu:8:17: error: '__hmax' (fp16) has no HIP equivalent [unsupported-api]
// REPORT: 2 errors, 0 warnings
