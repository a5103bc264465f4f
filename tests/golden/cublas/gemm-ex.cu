// HIP 5.2 (hipBLAS 5.x; for HIP 6.4 see hipblas64-v2.cu): cublasGemmEx -> hipblasGemmEx; the data types CUDA_R_16F/CUDA_R_32F -> HIP_R_16F/HIP_R_32F,
// the compute type CUBLAS_COMPUTE_32F -> HIPBLAS_COMPUTE_32F and the algorithm
// CUBLAS_GEMM_DEFAULT -> HIPBLAS_GEMM_DEFAULT.
// RUN: %gpuport translate --hip-version 5.2 %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cublas_v2.h>

void mixed(cublasHandle_t h, int n, const void* A, const void* B, void* C) {
  const float alpha = 1.0f, beta = 0.0f;
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, A, CUDA_R_16F, n, B, CUDA_R_16F, n,
               &beta, C, CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  // CHECK: hipblasGemmEx(h, HIPBLAS_OP_N, HIPBLAS_OP_N, n, n, n, &alpha, A, HIP_R_16F, n, B, HIP_R_16F, n,
  // CHECK-NEXT: &beta, C, HIP_R_32F, n, HIPBLAS_COMPUTE_32F, HIPBLAS_GEMM_DEFAULT);
}
// CHECK-NOT: CUBLAS_
// CHECK-NOT: CUDA_R_
// REPORT: 0 errors
