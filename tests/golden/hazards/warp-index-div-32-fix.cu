// With --fix-warp-size the warp index uses warpSize: `threadIdx.x / 32` -> `threadIdx.x /
// warpSize`, and `lane_tid >> 5` -> `lane_tid / warpSize`.
// RUN: %gpuport translate --fix-warp-size %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__global__ void k(int* out) {
  int warp = threadIdx.x / 32;
  // CHECK: int warp = threadIdx.x / warpSize;
  unsigned tid = threadIdx.x + blockIdx.x * blockDim.x;
  out[tid >> 5] = warp;
  // CHECK: out[tid / warpSize] = warp;
}
// CHECK-NOT: >> 5
// REPORT: fixed: / warpSize
// REPORT: fixed: / warpSize
// REPORT: 0 errors, 2 warnings
