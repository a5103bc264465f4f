// SpMM with a COO matrix and dense matrices: cusparseCreateCoo, cusparseCreateDnMat,
// cusparseSpMM_bufferSize, cusparseSpMM, CUSPARSE_SPMM_ALG_DEFAULT, CUSPARSE_INDEX_64I,
// CUSPARSE_OPERATION_TRANSPOSE and CUDA_R_64F map to their hipSPARSE/HIP names.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cusparse.h>

void spmm(cusparseHandle_t h, long long n, long long nnz, long long* ri, long long* ci, double* v,
          double* b, double* c, size_t* bytes) {
  cusparseSpMatDescr_t A;
  cusparseDnMatDescr_t B, C;
  // CHECK: hipsparseDnMatDescr_t B, C;
  cusparseCreateCoo(&A, n, n, nnz, ri, ci, v, CUSPARSE_INDEX_64I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F);
  // CHECK-NEXT: hipsparseCreateCoo(&A, n, n, nnz, ri, ci, v, HIPSPARSE_INDEX_64I, HIPSPARSE_INDEX_BASE_ZERO, HIP_R_64F);
  double one = 1.0, zero = 0.0;
  cusparseSpMM_bufferSize(h, CUSPARSE_OPERATION_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, B,
                          &zero, C, CUDA_R_64F, CUSPARSE_SPMM_ALG_DEFAULT, bytes);
  // CHECK: hipsparseSpMM_bufferSize(h, HIPSPARSE_OPERATION_TRANSPOSE, HIPSPARSE_OPERATION_NON_TRANSPOSE, &one, A, B,
  // CHECK-NEXT: &zero, C, HIP_R_64F, HIPSPARSE_SPMM_ALG_DEFAULT, bytes);
}
// REPORT: 0 errors, 0 warnings
