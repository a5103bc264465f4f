// Round-to-nearest arithmetic and conversion intrinsics (_rn) exist in HIP 5.2 and stay.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__device__ float rn(float a, float b, double d) {
  float x = __fadd_rn(a, b) + __fmul_rn(a, b) + __fdiv_rn(a, b);
  // CHECK: float x = __fadd_rn(a, b) + __fmul_rn(a, b) + __fdiv_rn(a, b);
  float y = __fmaf_rn(a, b, x) + __frcp_rn(a) + __fsqrt_rn(b);
  // CHECK-NEXT: float y = __fmaf_rn(a, b, x) + __frcp_rn(a) + __fsqrt_rn(b);
  double z = __dadd_rn(d, d) + __dsqrt_rn(d);
  // CHECK-NEXT: double z = __dadd_rn(d, d) + __dsqrt_rn(d);
  int i = __float2int_rn(y) + (int)__float2uint_rn(x);
  // CHECK-NEXT: int i = __float2int_rn(y) + (int)__float2uint_rn(x);
  return x + y + (float)z + i;
}
// REPORT: 0 errors, 0 warnings
