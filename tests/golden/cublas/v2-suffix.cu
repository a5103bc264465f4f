// The _v2 spellings that cublas_v2.h defines (cublasCreate_v2, cublasSgemm_v2,
// cublasSetStream_v2, cublasDestroy_v2, ...) map to the plain hipBLAS names.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cublas_v2.h>

void v2(cudaStream_t s, int n, const float* a, const float* b, float* c, float* y) {
  cublasHandle_t h;
  cublasCreate_v2(&h);
  // CHECK: hipblasCreate(&h);
  cublasSetStream_v2(h, s);
  // CHECK-NEXT: hipblasSetStream(h, s);
  float one = 1.0f;
  cublasSaxpy_v2(h, n, &one, a, 1, y, 1);
  // CHECK: hipblasSaxpy(h, n, &one, a, 1, y, 1);
  cublasSgemm_v2(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, b, n, &one, c, n);
  // CHECK-NEXT: hipblasSgemm(h, HIPBLAS_OP_N, HIPBLAS_OP_N, n, n, n, &one, a, n, b, n, &one, c, n);
  cublasDestroy_v2(h);
  // CHECK-NEXT: hipblasDestroy(h);
}
// CHECK-NOT: _v2
// REPORT: 0 errors, 0 warnings
