// Packed half2 arithmetic (__half2, __floats2half2_rn, __hadd2, __hmul2, h2sqrt,
// __low2float) keeps its names in HIP; the `half` alias too.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_fp16.h>
// CHECK: #include <hip/hip_fp16.h>

__device__ float dot2(__half2 a, __half2 b, half bias) {
  __half2 one = __floats2half2_rn(1.0f, 1.0f);
  // CHECK: __half2 one = __floats2half2_rn(1.0f, 1.0f);
  __half2 p = __hadd2(__hmul2(a, b), one);
  // CHECK-NEXT: __half2 p = __hadd2(__hmul2(a, b), one);
  p = h2sqrt(p);
  // CHECK-NEXT: p = h2sqrt(p);
  return __low2float(p) + __high2float(p) + __half2float(bias);
  // CHECK-NEXT: return __low2float(p) + __high2float(p) + __half2float(bias);
}
// REPORT: 0 errors, 0 warnings
