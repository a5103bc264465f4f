// CUDA's SIMD-in-word intrinsics and __dp4a (ggml's quantized dot products): HIP has none.
// They become gpuport's shims, which compute each byte or halfword lane as CUDA's documentation
// defines it (wrapping, saturating, comparing to all-ones lanes, summing absolute differences);
// on NVIDIA CUDA's own. The expected values below are worked out by hand from those
// definitions for a = 0x80FF7F01, b = 0x017F0102 (bytes low to high: 1/2, 127/1, -1/127 or
// 255/127, -128/1 or 128/1). The program runs on the emulator.
// REQUIRES: hip-compilers, hip64
// RUN: rm -rf %t && %gpuport translate --hip-version 5.2 --check -o %t %s > %t.log 2>&1
// RUN: FileCheck --check-prefix=REPORT %s < %t.log
// RUN: grep -v -e CHECK -e RUN -e REPORT -e EMU %t/simd-video-intrinsics.cu | FileCheck %s
// RUN: rm -rf %t.run && mkdir %t.run && cd %t.run && %gpuport nvcc %s -o simd
// RUN: %gpuport run %t.run/simd | FileCheck --check-prefix=EMU %s
// EMU: simd: 12 of 12 PASS
#include <cstdio>
#include <cuda_runtime.h>
// CHECK: #if !defined(GPUPORT_SIMD_VIDEO)

__global__ void lanes(unsigned int a, unsigned int b, unsigned int* out, int* dot) {
  out[0] = __vsub4(a, b);
  // CHECK: out[0] = gpuport_vsub4(a, b);
  out[1] = __vsubss4(a, b);
  out[2] = __vcmpne4(a, b);
  out[3] = __vcmpne4(a, a);
  out[4] = __vabsdiffu4(a, b);
  out[5] = __vaddus4(a, b);
  out[6] = __vsads4(a, b);
  out[7] = __vcmpgts4(a, b);
  out[8] = __vmaxu4(a, b);
  out[9] = __vsub2(a, b);
  dot[0] = __dp4a(static_cast<int>(a), static_cast<int>(b), 0);
  // CHECK: dot[0] = gpuport_dp4a(static_cast<int>(a), static_cast<int>(b), 0);
  dot[1] = static_cast<int>(__dp4a(a, b, 0u));
}

int main() {
  unsigned int* out;
  int* dot;
  cudaMallocManaged(&out, 10 * sizeof(unsigned int));
  cudaMallocManaged(&dot, 2 * sizeof(int));
  lanes<<<1, 1>>>(0x80FF7F01u, 0x017F0102u, out, dot);
  cudaDeviceSynchronize();
  const unsigned int want[10] = {0x7F807EFFu, 0x80807EFFu, 0xFFFFFFFFu, 0u,          0x7F807E01u,
                                 0x81FF8003u, 384u,        0x0000FF00u, 0x80FF7F02u, 0x7F807DFFu};
  const int want_dot[2] = {-126, 32642};
  int pass = 0;
  for (int i = 0; i < 10; ++i) {
    if (out[i] == want[i]) ++pass;
    else std::printf("lane op %d: 0x%08X, want 0x%08X\n", i, out[i], want[i]);
  }
  for (int i = 0; i < 2; ++i) {
    if (dot[i] == want_dot[i]) ++pass;
    else std::printf("dp4a %d: %d, want %d\n", i, dot[i], want_dot[i]);
  }
  std::printf("simd: %d of 12 %s\n", pass, pass == 12 ? "PASS" : "FAIL");
  return pass == 12 ? 0 : 1;
}
// REPORT-NOT: unsupported-api
// REPORT: check gfx1100: compiles
// REPORT: check nvidia: compiles
