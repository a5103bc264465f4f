// cuda_bf16.h for HIP 6.4 (the default): hip/hip_bf16.h, whose __hip_bfloat16 and __hip_bfloat162
// stand for CUDA's types, and whose intrinsics carry CUDA's names (read off the header by
// scripts/make-hip64-bf16-rows). __float2bfloat16_rn becomes __float2bfloat16, which rounds to
// nearest even. With HIP 5.2 these are hip_bfloat16 and reports (math/bf16.cu).
// RUN: rm -rf %t && %gpuport translate --check --check-targets amd -o %t %s > %t.log 2>&1
// RUN: FileCheck --check-prefix=REPORT %s < %t.log
// RUN: grep -v -e CHECK -e RUN -e REPORT %t/bf16-hip64.cu | FileCheck %s
#include <cuda_bf16.h>
// CHECK: #include <hip/hip_bf16.h>
__global__ void k(const float* in, __nv_bfloat16* out, __nv_bfloat162* pairs, float* sums) {
  // CHECK: __global__ void k(const float* in, __hip_bfloat16* out, __hip_bfloat162* pairs, float* sums) {
  const int i = threadIdx.x;
  out[i] = __float2bfloat16_rn(in[i]);
  // CHECK: out[i] = __float2bfloat16(in[i]);
  const __nv_bfloat162 p = __halves2bfloat162(out[i], __float2bfloat16(2.0f));
  // CHECK: const __hip_bfloat162 p = __halves2bfloat162(out[i], __float2bfloat16(2.0f));
  pairs[i] = p;
  sums[i] = __bfloat162float(__low2bfloat16(p)) + __bfloat162float(__high2bfloat16(p));
  // CHECK: sums[i] = __bfloat162float(__low2bfloat16(p)) + __bfloat162float(__high2bfloat16(p));
}
// REPORT: check gfx1100: compiles
// REPORT: 0 errors, 0 warnings
