// Inline assembly that is already AMD's (a project's own HIP path: llama.cpp's __dp4a for gfx1010
// in v_mul_i32_i24) is no PTX: VGPR operands ("v"), AMD mnemonics (v_, s_, ds_, global_). It is
// kept as written and not reported, so the translated file builds for gfx1100 and runs there.
// REQUIRES: hip-compilers, hip64
// RUN: %gpuport translate %s > %t.cu 2> %t.err
// RUN: FileCheck --check-prefix=REPORT --allow-empty %s < %t.err
// RUN: grep -v -e CHECK -e RUN -e REPORT -e EMU %t.cu | FileCheck %s
// RUN: rm -rf %t.run && mkdir %t.run && cd %t.run && %gpuport nvcc %s -o add3
// RUN: %gpuport run %t.run/add3 | FileCheck --check-prefix=EMU %s
// REPORT-NOT: inline-ptx
// EMU: add3: 2+3+4 = 9: PASS
#include <cstdio>
#include <cuda_runtime.h>

__global__ void add3(const int* in, int* out) {
  int a = in[0], b = in[1], c = in[2], r;
#if defined(__gfx1100__)
  asm volatile("v_add3_u32 %0, %1, %2, %3" : "=v"(r) : "v"(a), "v"(b), "v"(c));
  // CHECK: asm volatile("v_add3_u32 %0, %1, %2, %3" : "=v"(r) : "v"(a), "v"(b), "v"(c));
#else
  r = a + b + c;
#endif
  out[0] = r;
}

int main() {
  int host[3] = {2, 3, 4}, *in, *out, r = 0;
  cudaMalloc(&in, sizeof host);
  cudaMalloc(&out, sizeof(int));
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  add3<<<1, 1>>>(in, out);
  cudaMemcpy(&r, out, sizeof r, cudaMemcpyDeviceToHost);
  std::printf("add3: 2+3+4 = %d: %s\n", r, r == 9 ? "PASS" : "FAIL");
  return r == 9 ? 0 : 1;
}
