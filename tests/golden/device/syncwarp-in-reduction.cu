// A typical warp reduction: the full-mask shuffles lose their mask, __syncwarp becomes a
// block fence, and the loop start 16 is reported as a 32-lane assumption (warp-size-literal)
// but not changed without --fix-warp-size.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  // CHECK: for (int offset = 16; offset > 0; offset /= 2)
  // CHECK-NEXT: v += __shfl_down(v, offset);
  __syncwarp();
  // CHECK-NEXT: __threadfence_block();
  return v;
}
// REPORT: syncwarp-in-reduction.cu:8:21: warning: shuffle reduction starts at 16, which covers 32 lanes only [warp-size-literal]
// REPORT-NEXT: fix: warpSize / 2
// REPORT: 0 errors, 1 warnings
