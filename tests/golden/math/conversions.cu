// Type-conversion intrinsics with a rounding mode in their name are available in HIP 5.2
// (they are conversions, not directed-rounding arithmetic): __float2int_rd, __int2float_rd,
// __double2float_rd, __float2half_rz stay and are not reported.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_fp16.h>

__device__ float conv(float f, int i, double d) {
  int a = __float2int_rd(f);
  // CHECK: int a = __float2int_rd(f);
  float b = __int2float_rd(i) + __double2float_rd(d);
  // CHECK-NEXT: float b = __int2float_rd(i) + __double2float_rd(d);
  __half h = __float2half_rz(b);
  // CHECK-NEXT: __half h = __float2half_rz(b);
  return a + b + __half2float(h);
}
// REPORT: 0 errors, 0 warnings
