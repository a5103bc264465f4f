// Dense-matrix layout: CUSPARSE_ORDER_COL is HIPSPARSE_ORDER_COLUMN in hipSPARSE 5.x (the
// enumerator is spelled out; hipsparse.h declares it for HIP and for CUDA >= 10.1) and
// CUSPARSE_ORDER_ROW is HIPSPARSE_ORDER_ROW. hipSPARSE 6.4 deprecates ORDER_COLUMN for CUDA's
// spelling, HIPSPARSE_ORDER_COL, which HIP 6.4 (the default) gets.
// RUN: %gpuport translate --hip-version 5.2 %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
// RUN: %gpuport translate %s 2>/dev/null | FileCheck --check-prefix=HIP64 %s
// HIP64: hipsparseCreateDnMat(B, n, n, n, b, HIP_R_32F, HIPSPARSE_ORDER_COL);
#include <cusparse.h>

void dense(cusparseDnMatDescr_t* B, cusparseDnMatDescr_t* C, float* b, float* c, long long n) {
  cusparseCreateDnMat(B, n, n, n, b, CUDA_R_32F, CUSPARSE_ORDER_COL);
  // CHECK: hipsparseCreateDnMat(B, n, n, n, b, HIP_R_32F, HIPSPARSE_ORDER_COLUMN);
  cusparseCreateDnMat(C, n, n, n, c, CUDA_R_32F, CUSPARSE_ORDER_ROW);
  // CHECK-NEXT: hipsparseCreateDnMat(C, n, n, n, c, HIP_R_32F, HIPSPARSE_ORDER_ROW);
}
// REPORT: 0 errors, 0 warnings
