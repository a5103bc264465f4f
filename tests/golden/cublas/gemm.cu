// GEMM: cublasSgemm/cublasDgemm -> hipblasSgemm/hipblasDgemm with the operation enumerators
// CUBLAS_OP_N/T/C -> HIPBLAS_OP_N/T/C; the arguments keep their order.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cublas_v2.h>

void gemms(cublasHandle_t h, int m, int n, int k, const float* A, const float* B, float* C,
           const double* dA, const double* dB, double* dC) {
  const float alpha = 1.0f, beta = 0.0f;
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, m, n, k, &alpha, A, m, B, n, &beta, C, m);
  // CHECK: hipblasSgemm(h, HIPBLAS_OP_N, HIPBLAS_OP_T, m, n, k, &alpha, A, m, B, n, &beta, C, m);
  const double one = 1.0, zero = 0.0;
  cublasOperation_t op = CUBLAS_OP_C;
  // CHECK: hipblasOperation_t op = HIPBLAS_OP_C;
  cublasDgemm(h, op, CUBLAS_OP_N, m, n, k, &one, dA, k, dB, k, &zero, dC, m);
  // CHECK-NEXT: hipblasDgemm(h, op, HIPBLAS_OP_N, m, n, k, &one, dA, k, dB, k, &zero, dC, m);
}
// CHECK-NOT: CUBLAS_
// REPORT: 0 errors, 0 warnings
