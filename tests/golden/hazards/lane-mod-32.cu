// `% 32` on a thread or lane index in device code is lane arithmetic (warp-lane-arithmetic,
// fix "warpSize"), including a lane variable assigned from a parenthesised expression.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__global__ void k(int* out) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = tid % 32;
  // CHECK: int lane = tid % 32;
  int lane_id = (blockIdx.x * blockDim.x + threadIdx.x) % 32;
  // CHECK-NEXT: int lane_id = (blockIdx.x * blockDim.x + threadIdx.x) % 32;
  out[tid] = lane + lane_id;
}
// REPORT: lane-mod-32.cu:8:20: warning: '% 32' computes a lane index for 32-lane warps [warp-lane-arithmetic]
// REPORT-NEXT: fix: warpSize
// REPORT: lane-mod-32.cu:10:59: warning: '% 32' {{.*}}[warp-lane-arithmetic]
// REPORT: 0 errors, 2 warnings
