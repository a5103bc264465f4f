// A CUDA intrinsic the project defines itself only for its own HIP build (llama.cpp's
// __vsubss4 under `#if defined(GGML_USE_HIPBLAS)`): CUDA declares the intrinsic, so under nvcc the
// definition is never the one called. Names reserved to the implementation (`__` first) defined
// inside a conditional group are another platform's, and the calls are translated as CUDA's.
// REQUIRES: hip-compilers, hip64
// RUN: rm -rf %t && %gpuport translate --hip-version 5.2 -o %t %s > %t.log 2>&1
// RUN: grep -v -e CHECK -e RUN -e EMU %t/intrinsic-defined-for-hip-build.cu | FileCheck %s
// RUN: rm -rf %t.run && mkdir %t.run && cd %t.run && %gpuport nvcc -I %S %s -o subss
// RUN: %gpuport run %t.run/subss | FileCheck --check-prefix=EMU %s
// EMU: subss: 0x80807EFF: PASS
#include <cstdio>
#include <cuda_runtime.h>
#include "Inputs/project-config.h"

#if defined(PROJECT_HIP_BUILD)
static __device__ __forceinline__ int __vsubss4(const int a, const int b) {
  return a - b;  // the project's own (here deliberately different) version
}
#endif

__global__ void lanes(unsigned int a, unsigned int b, unsigned int* out) {
  out[0] = __vsubss4(a, b);
  // CHECK: out[0] = gpuport_vsubss4(a, b);
}

int main() {
  unsigned int* out;
  cudaMallocManaged(&out, sizeof(unsigned int));
  lanes<<<1, 1>>>(0x80FF7F01u, 0x017F0102u, out);
  cudaDeviceSynchronize();
  const bool pass = out[0] == 0x80807EFFu;
  std::printf("subss: 0x%08X: %s\n", out[0], pass ? "PASS" : "FAIL");
  return pass ? 0 : 1;
}
