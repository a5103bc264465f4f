// A shuffle of width 64 is code written for AMD's 64-lane wavefronts (CUDA allows 32 at most):
// a project's own HIP branch, which the translation makes live. cuSZ's sparse histogram scans
// with __shfl_up(sum, d, 64) and threadIdx.x % 64 under #ifdef __HIP_PLATFORM_AMD__, and with
// 32 lanes in its #else (CUDA's) branch. gfx1100 runs 32-lane wavefronts, where the AMD scan
// adds lanes of the second wavefront twice. Reported; where the AMD branch stands alone in
// device code with CUDA's #else beside it, its condition becomes "AMD with 64-lane wavefronts",
// so gfx1100 takes CUDA's branch, written for 32 lanes, and the scan is right on the emulator.
// REQUIRES: hip-compilers, hip64
// RUN: %gpuport translate %s 2> %t.err | grep -v -e CHECK -e RUN -e REPORT -e EMU | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
// RUN: rm -rf %t.run && mkdir %t.run && cd %t.run && %gpuport nvcc %s -o scan
// RUN: %gpuport run %t.run/scan | FileCheck --check-prefix=EMU %s
// REPORT: shfl-width-64.cu:[[@LINE+13]]:32: warning: shuffle width 64: code for 64-lane wavefronts (CDNA); gfx1100 (RDNA3) runs 32-lane wavefronts, where a width of 64 spans two of them and each keeps its own lanes [wave64-width]
// REPORT-NEXT: fixed: the branch is now taken for 64-lane wavefronts only; gfx1100 takes the #else branch, CUDA's
// CHECK: #if defined(__HIP_PLATFORM_AMD__) && __AMDGCN_WAVEFRONT_SIZE == 64
// CHECK-NEXT: for (int d = 1; d < 64; d *= 2) {
// CHECK-NEXT: auto n = __shfl_up(sum, d, 64);
// EMU: scan of 64 ones: 1 2 .. 32 | 1 2 .. 32: PASS
#include <cstdio>
#include <cuda_runtime.h>

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

int main() {
  unsigned h[64], *d;
  for (auto& x : h) x = 1;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  scan<<<1, 64>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int i = 0; i < 64; ++i) ok = ok && h[i] == unsigned(i % 32 + 1);
  std::printf("scan of 64 ones: %u %u .. %u | %u %u .. %u: %s\n", h[0], h[1], h[31], h[32], h[33], h[63], ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
