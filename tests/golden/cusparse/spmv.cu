// The generic SpMV API maps one to one onto hipSPARSE: cusparseCreateCsr, cusparseCreateDnVec,
// cusparseSpMV_bufferSize and cusparseSpMV with their descriptor types and enumerators
// (CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUSPARSE_OPERATION_NON_TRANSPOSE,
// CUSPARSE_SPMV_ALG_DEFAULT), and the data type CUDA_R_32F -> HIP_R_32F.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cusparse.h>

void spmv(cusparseHandle_t h, int n, int nnz, int* rows, int* cols, float* vals, float* x, float* y) {
  cusparseSpMatDescr_t A;
  // CHECK: hipsparseSpMatDescr_t A;
  cusparseDnVecDescr_t vx, vy;
  // CHECK-NEXT: hipsparseDnVecDescr_t vx, vy;
  cusparseCreateCsr(&A, n, n, nnz, rows, cols, vals, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                    CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F);
  // CHECK-NEXT: hipsparseCreateCsr(&A, n, n, nnz, rows, cols, vals, HIPSPARSE_INDEX_32I, HIPSPARSE_INDEX_32I,
  // CHECK-NEXT: HIPSPARSE_INDEX_BASE_ZERO, HIP_R_32F);
  cusparseCreateDnVec(&vx, n, x, CUDA_R_32F);
  // CHECK-NEXT: hipsparseCreateDnVec(&vx, n, x, HIP_R_32F);
  cusparseCreateDnVec(&vy, n, y, CUDA_R_32F);
  // CHECK-NEXT: hipsparseCreateDnVec(&vy, n, y, HIP_R_32F);
  float alpha = 1.0f, beta = 0.0f;
  size_t bytes = 0;
  cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx, &beta, vy, CUDA_R_32F,
                          CUSPARSE_SPMV_ALG_DEFAULT, &bytes);
  // CHECK: hipsparseSpMV_bufferSize(h, HIPSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx, &beta, vy, HIP_R_32F,
  // CHECK-NEXT: HIPSPARSE_SPMV_ALG_DEFAULT, &bytes);
  void* buffer = nullptr;
  cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx, &beta, vy, CUDA_R_32F,
               CUSPARSE_SPMV_ALG_DEFAULT, buffer);
  // CHECK: hipsparseSpMV(h, HIPSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx, &beta, vy, HIP_R_32F,
  // CHECK-NEXT: HIPSPARSE_SPMV_ALG_DEFAULT, buffer);
  cusparseDestroyDnVec(vx);
  // CHECK-NEXT: hipsparseDestroyDnVec(vx);
  cusparseDestroySpMat(A);
  // CHECK-NEXT: hipsparseDestroySpMat(A);
}
// CHECK-NOT: CUSPARSE_
// CHECK-NOT: CUDA_R_
// REPORT: 0 errors, 0 warnings
