// A shuffle width of 32 assumes 32-lane warps: warp-size-literal at the width, fix "warpSize".
// The mask is a full one, so there is no mask finding; other widths are not reported.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__device__ float bfly(float v, int m) {
  float a = __shfl_xor_sync(0xffffffff, v, m, 32);
  // CHECK: float a = __shfl_xor(v, m, 32);
  float b = __shfl_down_sync(0xffffffff, v, 1, 16);
  // CHECK-NEXT: float b = __shfl_down(v, 1, 16);
  return a + b;
}
// REPORT: shfl-width-32.cu:7:47: warning: shuffle width 32 assumes a 32-lane warp [warp-size-literal]
// REPORT-NEXT: fix: warpSize
// REPORT: 0 errors, 1 warnings
