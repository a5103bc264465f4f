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
// EMU: C = 19 22 43 50: PASS
#include <cstdio>
#include <cuda_runtime.h>
#include <cublas_v2.h>

int main() {
#ifdef __HIP_PLATFORM_AMD__
  rocblas_initialize();  // the project's workaround for its own AMD build
#endif
  const float a[4] = {1, 3, 2, 4}, b[4] = {5, 7, 6, 8};  // column-major [[1 2] [3 4]], [[5 6] [7 8]]
  float c[4] = {}, *da, *db, *dc;
  cudaMalloc(&da, sizeof a);
  cudaMalloc(&db, sizeof b);
  cudaMalloc(&dc, sizeof c);
  cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice);
  cublasHandle_t h;
  cublasCreate(&h);
  const float one = 1, zero = 0;
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, da, 2, db, 2, &zero, dc, 2);
  cudaMemcpy(c, dc, sizeof c, cudaMemcpyDeviceToHost);
  cublasDestroy(h);
  const bool ok = c[0] == 19 && c[2] == 22 && c[1] == 43 && c[3] == 50;
  std::printf("C = %g %g %g %g: %s\n", c[0], c[2], c[1], c[3], ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
