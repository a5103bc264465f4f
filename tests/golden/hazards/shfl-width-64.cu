// A shuffle of width 64 is code written for AMD's 64-lane wavefronts (CUDA allows 32 at most):
// a project's own HIP branch, which the translation makes live (cuSZ's sparse histogram scans
// with __shfl_up(sum, d, 64) and threadIdx.x % 64 under __HIP_PLATFORM_AMD__, and its CUDA
// branch with 32). gfx1100 runs 32-lane wavefronts, where that scan is wrong: reported, with
// the width, and nothing rewritten.
// RUN: %gpuport translate %s 2> %t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
// REPORT: shfl-width-64.cu:[[@LINE+7]]:32: warning: shuffle width 64: code for 64-lane wavefronts (CDNA); gfx1100 (RDNA3) runs 32-lane wavefronts, where a width of 64 spans two of them and each keeps its own lanes [wave64-width]
// CHECK: auto n = __shfl_up(sum, d, 64);

__global__ void scan(unsigned* v) {
  unsigned sum = v[threadIdx.x];
#ifdef __HIP_PLATFORM_AMD__
  for (int d = 1; d < 64; d *= 2) {
    auto n = __shfl_up(sum, d, 64);
    if (threadIdx.x % 64 >= d) sum += n;
  }
#else
  for (int d = 1; d < 32; d *= 2) {
    auto n = __shfl_up_sync(0xffffffff, sum, d);
    if (threadIdx.x % 32 >= d) sum += n;
  }
#endif
  v[threadIdx.x] = sum;
}
