// `threadIdx.x & 31` in device code computes a lane for 32-lane warps: warp-lane-arithmetic
// at the 31, fix "(warpSize - 1)". Without --fix-warp-size the code is unchanged. The hex
// spelling 0x1f is the same hazard.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__global__ void lanes(int* out) {
  int lane = threadIdx.x & 31;
  // CHECK: int lane = threadIdx.x & 31;
  int lane2 = threadIdx.x & 0x1f;
  // CHECK-NEXT: int lane2 = threadIdx.x & 0x1f;
  out[threadIdx.x] = lane + lane2;
}
// CHECK-NOT: warpSize
// REPORT: lane-and-31.cu:8:28: warning: '& 31' computes a lane index for 32-lane warps [warp-lane-arithmetic]
// REPORT-NEXT: {{^    fix: \(warpSize - 1\)$}}
// REPORT: lane-and-31.cu:10:29: warning: '& 0x1f' computes a lane index for 32-lane warps [warp-lane-arithmetic]
// REPORT: 0 errors, 2 warnings
