// Legacy matrix descriptors still in use with the generic API: cusparseMatDescr_t,
// cusparseCreateMatDescr, cusparseSetMatType, cusparseSetMatIndexBase,
// cusparseDestroyMatDescr and their enumerators, and the format conversion cusparseXcoo2csr.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cusparse.h>

void descr(cusparseHandle_t h, const int* coo_rows, int nnz, int m, int* csr_rows) {
  cusparseMatDescr_t d;
  // CHECK: hipsparseMatDescr_t d;
  cusparseCreateMatDescr(&d);
  // CHECK-NEXT: hipsparseCreateMatDescr(&d);
  cusparseSetMatType(d, CUSPARSE_MATRIX_TYPE_GENERAL);
  // CHECK-NEXT: hipsparseSetMatType(d, HIPSPARSE_MATRIX_TYPE_GENERAL);
  cusparseSetMatIndexBase(d, CUSPARSE_INDEX_BASE_ZERO);
  // CHECK-NEXT: hipsparseSetMatIndexBase(d, HIPSPARSE_INDEX_BASE_ZERO);
  cusparseXcoo2csr(h, coo_rows, nnz, m, csr_rows, CUSPARSE_INDEX_BASE_ZERO);
  // CHECK-NEXT: hipsparseXcoo2csr(h, coo_rows, nnz, m, csr_rows, HIPSPARSE_INDEX_BASE_ZERO);
  cusparseDestroyMatDescr(d);
  // CHECK-NEXT: hipsparseDestroyMatDescr(d);
}
// REPORT: 0 errors, 0 warnings
