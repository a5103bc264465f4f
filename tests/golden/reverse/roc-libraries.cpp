// --to cuda also reads the --roc tables the other way: code written against rocBLAS directly
// becomes cuBLAS's v2 API (cublas_v2.h, cublasStatus_t; the legacy cublas.h names map to the same
// rocBLAS names and lose), and the result compiles with nvcc.
// RUN: %gpuport translate --to cuda %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <rocblas/rocblas.h>
// CHECK: #include <cublas_v2.h>
#include <hip/hip_runtime.h>

int saxpy(rocblas_handle handle, int n, const float* x, float* y) {
  // CHECK: int saxpy(cublasHandle_t handle, int n, const float* x, float* y) {
  const float alpha = 2.0f;
  rocblas_status s = rocblas_saxpy(handle, n, &alpha, x, 1, y, 1);
  // CHECK: cublasStatus_t s = cublasSaxpy(handle, n, &alpha, x, 1, y, 1);
  return s == rocblas_status_success ? 0 : 1;
  // CHECK: return s == CUBLAS_STATUS_SUCCESS ? 0 : 1;
}
// REPORT: 0 errors, 0 warnings
