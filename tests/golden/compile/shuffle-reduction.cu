// A block reduction through shared memory and warp shuffles, translated with --fix-warp-size:
// the mask-less __shfl_down, warpSize-based lane/warp indices and loop start compile for both
// targets. The 32-slot shared array is still reported (no automatic fix) but compiles.
// REQUIRES: hip-compilers
// RUN: rm -rf %t && %gpuport translate --fix-warp-size --hip-version 5.2 --check -o %t %s > %t.log 2>&1
// The default target, HIP 6.4, for gfx1100 (HIP 6.4 has no NVIDIA platform headers here):
// RUN: rm -rf %t.64 && %gpuport translate --fix-warp-size --check --check-targets amd -o %t.64 %s 2>&1 | FileCheck --check-prefix=HIP64 %s
// HIP64: check gfx1100: compiles
// RUN: FileCheck --check-prefix=REPORT %s < %t.log
// RUN: grep -v -e CHECK -e RUN -e REPORT %t/shuffle-reduction.cu | FileCheck %s

__inline__ __device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}
// CHECK: for (int offset = warpSize / 2; offset > 0; offset /= 2)
// CHECK-NEXT: v += __shfl_down(v, offset);

__global__ void block_sum(const float* in, float* out, int n) {
  __shared__ float partial[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  int warp = threadIdx.x / 32;
  float v = i < n ? in[i] : 0.0f;
  v = warp_sum(v);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x + 31) / 32 ? partial[lane] : 0.0f;
    v = warp_sum(v);
    if (lane == 0) atomicAdd(out, v);
  }
}
// CHECK: int lane = threadIdx.x % warpSize;
// CHECK-NEXT: int warp = threadIdx.x / warpSize;
// REPORT: warning: {{.*}}[warp-shared-array]
// REPORT: shuffle-reduction.cu: check gfx1100: compiles
// REPORT: shuffle-reduction.cu: check nvidia: compiles
// REPORT: 0 errors
// REPORT-SAME: checks: 2 passed, 0 failed
