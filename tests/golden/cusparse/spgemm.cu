// SpGEMM: the descriptor type and the create/work-estimation/compute/copy/destroy calls map
// one to one onto hipSPARSE.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cusparse.h>

void spgemm_setup() {
  cusparseSpGEMMDescr_t d;
  // CHECK: hipsparseSpGEMMDescr_t d;
  cusparseSpGEMM_createDescr(&d);
  // CHECK-NEXT: hipsparseSpGEMM_createDescr(&d);
  cusparseSpGEMM_destroyDescr(d);
  // CHECK-NEXT: hipsparseSpGEMM_destroyDescr(d);
}
// REPORT: 0 errors, 0 warnings
