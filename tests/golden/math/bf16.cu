// cuda_bf16.h becomes hip/hip_bfloat16.h and __nv_bfloat16 becomes the struct hip_bfloat16.
// The float conversions become functional casts: __float2bfloat16(x) -> hip_bfloat16(x) and
// __bfloat162float(x) -> float(x).
// RUN: %gpuport translate --hip-version 5.2 %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_bf16.h>
// CHECK: #include <hip/hip_bfloat16.h>

__global__ void scale(__nv_bfloat16* y, const __nv_bfloat16* x, float s) {
  // CHECK: __global__ void scale(hip_bfloat16* y, const hip_bfloat16* x, float s) {
  float v = __bfloat162float(x[threadIdx.x]);
  // CHECK-NEXT: float v = float(x[threadIdx.x]);
  y[threadIdx.x] = __float2bfloat16(v * s);
  // CHECK-NEXT: y[threadIdx.x] = hip_bfloat16(v * s);
}
// CHECK-NOT: __nv_bfloat16
// REPORT: 0 errors, 0 warnings
