// With --fix-warp-size, lane arithmetic in __global__/__device__ code is rewritten:
// `& 31` -> `& (warpSize - 1)`, `% 32` -> `% warpSize`; the report says "fixed:".
// RUN: %gpuport translate --fix-warp-size %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__device__ int lane_of(int tid) {
  return tid & 31;
  // CHECK: return tid & (warpSize - 1);
}

__global__ void k(int* out) {
  int lane = threadIdx.x % 32;
  // CHECK: int lane = threadIdx.x % warpSize;
  out[threadIdx.x] = lane_of(threadIdx.x) + lane;
}
// REPORT: lane-and-31-fix.cu:7:16: warning: '& 31' {{.*}}[warp-lane-arithmetic]
// REPORT-NEXT: {{^    fixed: \(warpSize - 1\)$}}
// REPORT: lane-and-31-fix.cu:12:28: warning: '% 32' {{.*}}[warp-lane-arithmetic]
// REPORT-NEXT: {{^    fixed: warpSize$}}
// REPORT: 0 errors, 2 warnings
