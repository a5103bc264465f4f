// Warp index computations with a literal 32-lane warp: `threadIdx.x / 32` and `tid >> 5` are
// warp-size-literal warnings (fix "/ warpSize"), unchanged without --fix-warp-size.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__global__ void k(int* out) {
  int warp = threadIdx.x / 32;
  // CHECK: int warp = threadIdx.x / 32;
  int tid = threadIdx.x;
  int w2 = tid >> 5;
  // CHECK: int w2 = tid >> 5;
  out[tid] = warp + w2;
}
// REPORT: warp-index-div-32.cu:7:28: warning: '/ 32' divides by a 32-lane warp size [warp-size-literal]
// REPORT-NEXT: fix: / warpSize
// REPORT: warp-index-div-32.cu:10:19: warning: '>> 5' divides by a 32-lane warp size [warp-size-literal]
// REPORT: 0 errors, 2 warnings
