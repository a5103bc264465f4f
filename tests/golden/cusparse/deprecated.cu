// Legacy cuSPARSE functions deprecated in CUDA still have hipSPARSE twins: they are
// translated (cusparseSgthr -> hipsparseSgthr, cusparseCreateCsrsv2Info ->
// hipsparseCreateCsrsv2Info) and each use gets a deprecated-api warning, not an error.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cusparse.h>

void legacy(cusparseHandle_t h, int nnz, const float* y, float* vals, const int* idx, csrsv2Info_t* info) {
  cusparseSgthr(h, nnz, y, vals, idx, CUSPARSE_INDEX_BASE_ZERO);
  // CHECK: hipsparseSgthr(h, nnz, y, vals, idx, HIPSPARSE_INDEX_BASE_ZERO);
  cusparseCreateCsrsv2Info(info);
  // CHECK-NEXT: hipsparseCreateCsrsv2Info(info);
}
// REPORT: deprecated.cu:9:3: warning: 'cusparseSgthr' is deprecated in CUDA [deprecated-api]
// REPORT: deprecated.cu:11:3: warning: 'cusparseCreateCsrsv2Info' is deprecated in CUDA [deprecated-api]
// REPORT: 0 errors, 2 warnings
