// fp16 bit casts and half-precision math functions (__half_as_ushort, __ushort_as_half,
// hexp, hlog, hrsqrt, __habs, __hneg) keep their names in HIP.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_fp16.h>

__device__ unsigned short bits(__half h) {
  __half e = hexp(h) + hlog(__habs(h)) + hrsqrt(h);
  // CHECK: __half e = hexp(h) + hlog(__habs(h)) + hrsqrt(h);
  return __half_as_ushort(__hneg(e)) ^ __half_as_ushort(__ushort_as_half(0x3c00));
  // CHECK-NEXT: return __half_as_ushort(__hneg(e)) ^ __half_as_ushort(__ushort_as_half(0x3c00));
}
// REPORT: 0 errors, 0 warnings
