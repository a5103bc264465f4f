// A realistic warp-reduction kernel with every common 32-lane assumption; with
// --fix-warp-size the safe ones are rewritten and the rest reported, and the summary counts all.
// RUN: %gpuport translate --fix-warp-size %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#define WARP_SIZE 32

__global__ void reduce(const float* in, float* out) {
  __shared__ float sums[32];
  int lane = threadIdx.x % 32;
  int warp = threadIdx.x / 32;
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
  if (lane == 0) sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < blockDim.x / WARP_SIZE ? sums[lane] : 0.0f;
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    if (lane == 0) out[blockIdx.x] = v;
  }
}
// CHECK: #define WARP_SIZE 32
// CHECK: __shared__ float sums[32];
// CHECK-NEXT: int lane = threadIdx.x % warpSize;
// CHECK-NEXT: int warp = threadIdx.x / warpSize;
// CHECK: for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down(v, o);
// CHECK: for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down(v, o);
// REPORT: :5:19: warning: {{.*}}[warp-size-constant]
// REPORT: :8:25: warning: {{.*}}[warp-shared-array]
// REPORT: :9:28: warning: {{.*}}[warp-lane-arithmetic]
// REPORT: :10:28: warning: {{.*}}[warp-size-literal]
// REPORT: :12:16: warning: {{.*}}[warp-size-literal]
// REPORT: :17:18: warning: {{.*}}[warp-size-literal]
// REPORT: 0 errors, 6 warnings
