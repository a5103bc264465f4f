// Inline PTX in a group the file's own conditions exclude (GPUJPEG's PTX IDCT sits under the
// #else of `#if !GPUJPEG_IDCT_USE_ASM`, with the macro defined 0 above it) is no error: no
// compiler sees it. It is a warning, for a build that enables the group. The file translates
// with exit 0, builds with gpuport nvcc and runs; given -DUSE_ASM=1, the group is live and the
// PTX an error again (gpuport nvcc reads the command's macros as the compiler will).
// REQUIRES: hip-compilers, hip64
// RUN: %gpuport translate %s > %t.cu 2> %t.err
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
// RUN: rm -rf %t.run && mkdir %t.run && cd %t.run && %gpuport nvcc %s -o idct
// RUN: %gpuport run %t.run/idct | FileCheck --check-prefix=EMU %s
// RUN: not %gpuport nvcc -DUSE_ASM=1 -c %s -o %t.run/live.o 2> %t.live
// RUN: FileCheck --check-prefix=LIVE %s < %t.live
// REPORT: excluded-group.cu:[[@LINE+15]]:3: warning: inline PTX (fma.rn.f32) in a group that this file's conditions exclude as its macros stand; it does not compile for AMD GPUs in a build that enables the group [inline-ptx]
// REPORT-NOT: error:
// LIVE: excluded-group.cu:[[@LINE+13]]:3: error: inline PTX (fma.rn.f32) does not compile for AMD GPUs [inline-ptx]
// EMU: scaled: 7 9 11 13: PASS
#include <cstdio>
#include <cuda_runtime.h>

#if !defined(USE_ASM)
#define USE_ASM 0
#endif

#if !USE_ASM
#define MULTIPLY_ADD(r, a, b, c) r = a * b + c
#else
#define MULTIPLY_ADD(r, a, b, c) \
  asm("fma.rn.f32 %0, %1, %2, %3;" : "=f"(r) : "f"(a), "f"(b), "f"(c))
#endif

__global__ void scale(float* v) {
  float r;
  MULTIPLY_ADD(r, v[threadIdx.x], 2.0f, 7.0f);
  v[threadIdx.x] = r;
}

int main() {
  float host[4] = {0, 1, 2, 3}, *v;
  cudaMalloc(&v, sizeof host);
  cudaMemcpy(v, host, sizeof host, cudaMemcpyHostToDevice);
  scale<<<1, 4>>>(v);
  cudaMemcpy(host, v, sizeof host, cudaMemcpyDeviceToHost);
  const bool ok = host[0] == 7 && host[1] == 9 && host[2] == 11 && host[3] == 13;
  std::printf("scaled: %g %g %g %g: %s\n", host[0], host[1], host[2], host[3], ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
