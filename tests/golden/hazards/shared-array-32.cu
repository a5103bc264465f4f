// A __shared__ array with one slot per warp lane, sized 32, is indexed past its end by lanes
// 32-63 of a 64-lane wavefront: warp-shared-array at the size. There is no automatic fix.
// RUN: %gpuport translate --fix-warp-size %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__global__ void partials(const float* in, float* out) {
  __shared__ float partial[32];
  // CHECK: __shared__ float partial[32];
  __shared__ int counts[32];
  // CHECK-NEXT: __shared__ int counts[32];
  partial[threadIdx.x % 32] = in[threadIdx.x];
  counts[0] = 0;
  out[0] = partial[0];
}
// REPORT: shared-array-32.cu:7:28: warning: __shared__ array sized by 32 assumes 32-lane warps{{.*}}[warp-shared-array]
// REPORT-NEXT: {{^    fix: size it by the wavefront size}}
// REPORT: shared-array-32.cu:9:25: warning: __shared__ array sized by 32{{.*}}[warp-shared-array]
