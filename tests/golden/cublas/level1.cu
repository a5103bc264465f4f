// Level-1 BLAS: cublasSaxpy, cublasSdot, cublasSnrm2, cublasSscal, cublasScopy and
// cublasIsamax map to their hipblas names with unchanged arguments.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cublas_v2.h>

float level1(cublasHandle_t h, int n, float* x, float* y) {
  const float a = 2.0f;
  float dot = 0.0f, nrm = 0.0f;
  int imax = 0;
  cublasSaxpy(h, n, &a, x, 1, y, 1);
  // CHECK: hipblasSaxpy(h, n, &a, x, 1, y, 1);
  cublasSdot(h, n, x, 1, y, 1, &dot);
  // CHECK-NEXT: hipblasSdot(h, n, x, 1, y, 1, &dot);
  cublasSnrm2(h, n, x, 1, &nrm);
  // CHECK-NEXT: hipblasSnrm2(h, n, x, 1, &nrm);
  cublasSscal(h, n, &a, x, 1);
  // CHECK-NEXT: hipblasSscal(h, n, &a, x, 1);
  cublasScopy(h, n, x, 1, y, 1);
  // CHECK-NEXT: hipblasScopy(h, n, x, 1, y, 1);
  cublasIsamax(h, n, x, 1, &imax);
  // CHECK-NEXT: hipblasIsamax(h, n, x, 1, &imax);
  return dot + nrm + imax;
}
// REPORT: 0 errors, 0 warnings
