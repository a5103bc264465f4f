// cuBLAS's tensor-op math modes permit lower precision (TF32) and do not require it; pedantic asks
// for the standard precision. rocBLAS refuses them (HIPBLAS_STATUS_NOT_SUPPORTED), and llama.cpp,
// which checks cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH), aborted at its start. The call
// becomes the GPUPORT_HIPBLAS_MATH_MODE shim's: rocBLAS's default (full FP32) math, and success,
// as cuBLAS gives. Host C++ that g++ compiles with the toolkit folder's cublas_v2.h gets the same.
// REQUIRES: hip64, rocm64-hipblas, rocm64-rocblas
// RUN: %gpuport translate %s > %t.cu 2> %t.err
// RUN: grep -v -e CHECK -e RUN -e EMU %t.cu | FileCheck %s
// RUN: rm -rf %t.run && mkdir %t.run && cd %t.run && %gpuport nvcc %s -o modes -lcublas
// RUN: %gpuport run %t.run/modes | FileCheck --check-prefix=EMU %s
// RUN: %gpuport nvcc --toolkit %t.run/tk > /dev/null
// RUN: cd %t.run && sh -c '. %t.run/tk/bin/gpuportenv && g++ -x c++ -I%t.run/tk/include %s -o modes-gxx $LDFLAGS -L%t.run/tk/lib64 -lcudart -lcublas'
// RUN: %t.run/modes-gxx | FileCheck --check-prefix=EMU %s
// CHECK: #define GPUPORT_HIPBLAS_MATH_MODE
// CHECK: gpuport_hipblasSetMathMode(h, HIPBLAS_TF32_TENSOR_OP_MATH)
// EMU: tf32 0 tensor-op 0 pedantic 0 default 0
// EMU: C = 19 22 43 50: PASS
#include <cstdio>
#include <cuda_runtime.h>
#include <cublas_v2.h>

int main() {
  cublasHandle_t h;
  cublasCreate(&h);
  const int tf32 = cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH);
  const int tensor = cublasSetMathMode(h, CUBLAS_TENSOR_OP_MATH);
  const int pedantic = cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH);
  const int fallback = cublasSetMathMode(h, CUBLAS_DEFAULT_MATH);
  std::printf("tf32 %d tensor-op %d pedantic %d default %d\n", tf32, tensor, pedantic, fallback);
  cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH);
  const float a[4] = {1, 3, 2, 4}, b[4] = {5, 7, 6, 8};  // column-major [[1 2] [3 4]], [[5 6] [7 8]]
  float c[4] = {}, *da, *db, *dc;
  cudaMalloc(&da, sizeof a);
  cudaMalloc(&db, sizeof b);
  cudaMalloc(&dc, sizeof c);
  cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice);
  const float one = 1, zero = 0;
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, da, 2, db, 2, &zero, dc, 2);
  cudaMemcpy(c, dc, sizeof c, cudaMemcpyDeviceToHost);
  cublasDestroy(h);
  const bool ok = c[0] == 19 && c[2] == 22 && c[1] == 43 && c[3] == 50;
  std::printf("C = %g %g %g %g: %s\n", c[0], c[2], c[1], c[3], ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
