// A project's own code for AMD calls rocBLAS (llama.cpp: rocblas_initialize() under
// __HIP_PLATFORM_AMD__, its header included only by its own HIP build). The CUDA build never
// compiles it; the translation makes it live, so rocBLAS's header comes with it (the
// GPUPORT_ROCBLAS shim, after the runtime include), and the link brings rocBLAS beside hipBLAS.
// REQUIRES: hip64, rocm64-hipblas, rocm64-rocblas
// RUN: %gpuport translate %s > %t.cu 2> %t.err
// RUN: grep -v -e CHECK -e RUN -e EMU %t.cu | FileCheck %s
// RUN: rm -rf %t.run && mkdir %t.run && cd %t.run && %gpuport nvcc %s -o gemm -lcublas
// RUN: %gpuport run %t.run/gemm | FileCheck --check-prefix=EMU %s
// CHECK: #include <hip/hip_runtime.h>
// CHECK: #if defined(__HIP_PLATFORM_AMD__) && !defined(GPUPORT_ROCBLAS)
// CHECK-NEXT: #define GPUPORT_ROCBLAS
// CHECK-NEXT: #include <rocblas/rocblas.h>
// CHECK: #include <hipblas/hipblas.h>
// CHECK: rocblas_initialize();
// EMU: x.y = 70: PASS
#include <cstdio>
#include <cuda_runtime.h>
#include <cublas_v2.h>

int main() {
#ifdef __HIP_PLATFORM_AMD__
  rocblas_initialize();  // the project's workaround for its own AMD build
#endif
  const float x[4] = {1, 2, 3, 4}, y[4] = {5, 6, 7, 8};
  float *dx, *dy, dot = 0;
  cudaMalloc(&dx, sizeof x);
  cudaMalloc(&dy, sizeof y);
  cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y, sizeof y, cudaMemcpyHostToDevice);
  cublasHandle_t h;
  cublasCreate(&h);
  cublasSdot(h, 4, dx, 1, dy, 1, &dot);  // rocBLAS's kernel, on the device
  cublasDestroy(h);
  std::printf("x.y = %g: %s\n", dot, dot == 70 ? "PASS" : "FAIL");
  return dot == 70 ? 0 : 1;
}
