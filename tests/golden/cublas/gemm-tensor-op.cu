// HIP 5.2 (hipBLAS 5.x; for HIP 6.4 see hipblas64-v2.cu): CUBLAS_GEMM_DEFAULT_TENSOR_OP is only an algorithm hint: it becomes HIPBLAS_GEMM_DEFAULT.
// cublasComputeType_t becomes hipblasComputeType_t.
// RUN: %gpuport translate --hip-version 5.2 %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cublas_v2.h>

void tensor(cublasHandle_t h, int n, const void* A, void* C, float* alpha) {
  cublasComputeType_t ct = CUBLAS_COMPUTE_16F;
  // CHECK: hipblasComputeType_t ct = HIPBLAS_COMPUTE_16F;
  cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, n, n, n, alpha, A, CUDA_R_16F, n, A, CUDA_R_16F, n, alpha,
               C, CUDA_R_16F, n, ct, CUBLAS_GEMM_DEFAULT_TENSOR_OP);
  // CHECK-NEXT: hipblasGemmEx(h, HIPBLAS_OP_T, HIPBLAS_OP_N, n, n, n, alpha, A, HIP_R_16F, n, A, HIP_R_16F, n, alpha,
  // CHECK-NEXT: C, HIP_R_16F, n, ct, HIPBLAS_GEMM_DEFAULT);
}
// REPORT: 0 errors
