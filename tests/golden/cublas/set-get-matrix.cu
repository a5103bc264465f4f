// Host/device transfer helpers cublasSetMatrix, cublasSetVector, cublasGetVector and the
// pointer mode (cublasSetPointerMode, CUBLAS_POINTER_MODE_DEVICE) map to hipBLAS.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cublas_v2.h>

void transfer(cublasHandle_t h, int n, const float* host, float* dev, float* back) {
  cublasSetMatrix(n, n, sizeof(float), host, n, dev, n);
  // CHECK: hipblasSetMatrix(n, n, sizeof(float), host, n, dev, n);
  cublasSetVector(n, sizeof(float), host, 1, dev, 1);
  // CHECK-NEXT: hipblasSetVector(n, sizeof(float), host, 1, dev, 1);
  cublasGetVector(n, sizeof(float), dev, 1, back, 1);
  // CHECK-NEXT: hipblasGetVector(n, sizeof(float), dev, 1, back, 1);
  cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE);
  // CHECK-NEXT: hipblasSetPointerMode(h, HIPBLAS_POINTER_MODE_DEVICE);
}
// REPORT: 0 errors, 0 warnings
