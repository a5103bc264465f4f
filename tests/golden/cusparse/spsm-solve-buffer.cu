// CUDA 11.8's cusparseSpSM_solve takes 10 arguments (the work buffer stays in the SpSM
// descriptor after cusparseSpSM_analysis); hipSPARSE's hipsparseSpSM_solve takes a work
// buffer as an 11th argument: nullptr is passed, as hipify-clang does.
// RUN: %gpuport translate %s 2>/dev/null | grep -v -e CHECK -e RUN | FileCheck %s
#include <cusparse.h>
cusparseStatus_t solve(cusparseHandle_t h, cusparseSpMatDescr_t a, cusparseDnMatDescr_t b,
                       cusparseDnMatDescr_t c, cusparseSpSMDescr_t d, const float* alpha) {
  return cusparseSpSM_solve(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, a, b, c,
                            CUDA_R_32F, CUSPARSE_SPSM_ALG_DEFAULT, d);
  // CHECK: return hipsparseSpSM_solve(h, HIPSPARSE_OPERATION_NON_TRANSPOSE, HIPSPARSE_OPERATION_NON_TRANSPOSE, alpha, a, b, c,
  // CHECK-NEXT: HIP_R_32F, HIPSPARSE_SPSM_ALG_DEFAULT, d, nullptr);
}
