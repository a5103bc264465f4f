// CUDART_VERSION and CUDA_VERSION, which code tests to pick the CUDA features it uses (ggml's
// common.cuh, llama.cpp's ggml-cuda.cu), are kept: on AMD gpuport's shim after the runtime
// include defines them as 12060, the CUDA release whose API the tables map (and that gpuport nvcc
// reports), so the branch taken calls what the translation covers; on NVIDIA CUDA's own. nvcc's
// version macros (cuSZ prints them) read as that release's nvcc, 12.6.0, the same way.
// REQUIRES: hip-compilers
// RUN: rm -rf %t && %gpuport translate --hip-version 5.2 --check -o %t %s > %t.log 2>&1
// RUN: FileCheck --check-prefix=REPORT %s < %t.log
// RUN: rm -rf %t.64 && %gpuport translate --check --check-targets amd -o %t.64 %s 2>&1 | FileCheck --check-prefix=HIP64 %s
// HIP64: check gfx1100: compiles
// RUN: grep -v -e CHECK -e RUN -e REPORT -e HIP64 %t/cudart-version.cu | FileCheck %s
#include <cuda_runtime.h>
// CHECK: #include <hip/hip_runtime.h>
// CHECK: #if defined(__HIP_PLATFORM_AMD__) && !defined(GPUPORT_CUDART_VERSION)
// CHECK: #define CUDART_VERSION 12060
// CHECK: #define CUDA_VERSION 12060
// CHECK: #define __CUDACC_VER_MAJOR__ 12
// CHECK: #define __CUDACC_VER_MINOR__ 6
// CHECK: #define __CUDACC_VER_BUILD__ 0
#include <cstdio>

#if CUDART_VERSION >= 11020
// CHECK: #if CUDART_VERSION >= 11020
#define COPY_KIND cudaMemcpyDefault
#else
#error "an old CUDA"
#endif
#if !defined(CUDA_VERSION) || CUDA_VERSION < 11000
#error "an old CUDA driver API"
#endif

int main() {
  std::printf("runtime %d\n", CUDART_VERSION);
  // CHECK: std::printf("runtime %d\n", CUDART_VERSION);
  std::printf("nvcc %d.%d.%d\n", __CUDACC_VER_MAJOR__, __CUDACC_VER_MINOR__, __CUDACC_VER_BUILD__);
  // CHECK: std::printf("nvcc %d.%d.%d\n", __CUDACC_VER_MAJOR__, __CUDACC_VER_MINOR__, __CUDACC_VER_BUILD__);
  int* d = nullptr;
  cudaMalloc(&d, sizeof(int));
  int h = 7;
  cudaMemcpy(d, &h, sizeof(int), COPY_KIND);
  cudaFree(d);
  return 0;
}
// REPORT-NOT: unsupported-api
// REPORT: check gfx1100: compiles
// REPORT: check nvidia: compiles
