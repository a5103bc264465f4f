// HIP 6.4's __half2 (amd_hip_fp16.h) holds x and y as __half, as CUDA's does: for --hip-version
// 6.4, the default, h.x and h.y are left as written (HIP 5.2's held the raw bits and gets
// reinterpret_cast<half&>: device/half2-members.cu), and the result compiles for gfx1100.
// RUN: rm -rf %t && %gpuport translate --check --check-targets amd -o %t %s > %t.log 2>&1
// RUN: FileCheck --check-prefix=REPORT %s < %t.log
// RUN: grep -v -e CHECK -e RUN -e REPORT %t/half2-members-hip64.cu | FileCheck %s
#include <cuda_fp16.h>
__global__ void k(__half2* in, float* out) {
  half2 h = in[0];
  out[0] = __half2float(h.x) + __half2float(in[1].y);
  // CHECK: out[0] = __half2float(h.x) + __half2float(in[1].y);
  h.x = __float2half(1.0f);
  // CHECK: h.x = __float2half(1.0f);
  in[2] = h;
}
// REPORT: check gfx1100: compiles
// REPORT: 0 errors
