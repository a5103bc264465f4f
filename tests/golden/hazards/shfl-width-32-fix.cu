// With --fix-warp-size the shuffle width 32 becomes warpSize, for the *_sync form (after the
// mask is dropped) and for the mask-less form alike.
// RUN: %gpuport translate --fix-warp-size %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__device__ float bfly(float v, int m) {
  float a = __shfl_xor_sync(0xffffffff, v, m, 32);
  // CHECK: float a = __shfl_xor(v, m, warpSize);
  float b = __shfl(v, 0, 32);
  // CHECK-NEXT: float b = __shfl(v, 0, warpSize);
  return a + b;
}
// REPORT: :7:47: warning: shuffle width 32 {{.*}}[warp-size-literal]
// REPORT-NEXT: fixed: warpSize
// REPORT: :9:26: warning: shuffle width 32 {{.*}}[warp-size-literal]
// REPORT-NEXT: fixed: warpSize
// REPORT: 0 errors, 2 warnings
