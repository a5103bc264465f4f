// cuda_fp16.h becomes hip/hip_fp16.h; __half, __half2 and the fp16 conversion and arithmetic
// intrinsics have the same names in HIP and stay.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_fp16.h>
// CHECK: #include <hip/hip_fp16.h>
// CHECK-NOT: cuda_fp16

__global__ void axpy_half(__half* y, const __half* x, float alpha) {
  // CHECK: __global__ void axpy_half(__half* y, const __half* x, float alpha) {
  __half a = __float2half(alpha);
  // CHECK-NEXT: __half a = __float2half(alpha);
  __half r = __hadd(__hmul(a, x[threadIdx.x]), y[threadIdx.x]);
  // CHECK-NEXT: __half r = __hadd(__hmul(a, x[threadIdx.x]), y[threadIdx.x]);
  y[threadIdx.x] = hsqrt(__hfma(r, r, a));
  // CHECK-NEXT: y[threadIdx.x] = hsqrt(__hfma(r, r, a));
  float back = __half2float(r);
  // CHECK-NEXT: float back = __half2float(r);
  if (__hlt(r, a) || __hisnan(r)) y[0] = __float2half_rn(back);
  // CHECK-NEXT: if (__hlt(r, a) || __hisnan(r)) y[0] = __float2half_rn(back);
}
// REPORT: 0 errors, 0 warnings
