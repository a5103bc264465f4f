// Batched and strided-batched GEMM: cublasSgemmBatched, cublasDgemmBatched,
// cublasSgemmStridedBatched and cublasGemmStridedBatchedEx map to their hipblas names.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cublas_v2.h>

void batched(cublasHandle_t h, int n, int count, const float* const* Aa, float* const* Ca, const float* A,
             float* C, long long stride) {
  const float one = 1.0f;
  cublasSgemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, Aa, n, Aa, n, &one, Ca, n, count);
  // CHECK: hipblasSgemmBatched(h, HIPBLAS_OP_N, HIPBLAS_OP_N, n, n, n, &one, Aa, n, Aa, n, &one, Ca, n, count);
  cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, n, stride, A, n, stride, &one, C, n,
                            stride, count);
  // CHECK-NEXT: hipblasSgemmStridedBatched(h, HIPBLAS_OP_N, HIPBLAS_OP_N, n, n, n, &one, A, n, stride, A, n, stride, &one, C, n,
  // CHECK-NEXT: stride, count);
}
// REPORT: 0 errors, 0 warnings
