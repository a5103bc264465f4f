// cuSPARSE functions without a hipSPARSE twin in ROCm 5.2 are unsupported-api errors, left
// in place (cusparseGetErrorString here).
// RUN: not %gpuport translate --hip-version 5.2 %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cstdio>
#include <cusparse.h>

void report(cusparseStatus_t st) {
  std::printf("%s\n", cusparseGetErrorString(st));
  // CHECK: std::printf("%s\n", cusparseGetErrorString(st));
}
// REPORT: unsupported.cu:9:23: error: 'cusparseGetErrorString' (cusparse) has no HIP equivalent [unsupported-api]
// REPORT: 1 errors, 0 warnings
