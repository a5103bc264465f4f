// cuBLAS handles -> hipBLAS: cublas_v2.h becomes hipblas/hipblas.h; cublasHandle_t,
// cublasCreate, cublasSetStream, cublasDestroy and cublasStatus_t get their hipblas names and
// the status enumerator CUBLAS_STATUS_SUCCESS becomes HIPBLAS_STATUS_SUCCESS.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>
#include <cublas_v2.h>
// CHECK: #include <hip/hip_runtime.h>
// CHECK-NEXT: #include <hipblas/hipblas.h>

int open_blas(cudaStream_t s) {
  cublasHandle_t h;
  // CHECK: hipblasHandle_t h;
  cublasStatus_t st = cublasCreate(&h);
  // CHECK-NEXT: hipblasStatus_t st = hipblasCreate(&h);
  if (st != CUBLAS_STATUS_SUCCESS) return 1;
  // CHECK-NEXT: if (st != HIPBLAS_STATUS_SUCCESS) return 1;
  cublasSetStream(h, s);
  // CHECK-NEXT: hipblasSetStream(h, s);
  cublasDestroy(h);
  // CHECK-NEXT: hipblasDestroy(h);
  return 0;
}
// CHECK-NOT: cublas
// REPORT: 0 errors, 0 warnings
