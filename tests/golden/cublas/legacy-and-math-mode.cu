// HIP 5.2 (hipBLAS 5.x; for HIP 6.4 see hipblas64-v2.cu): The legacy cuBLAS API (cublasInit, cublasAlloc, cublasShutdown) and the math modes
// (cublasSetMathMode, CUBLAS_TENSOR_OP_MATH) have no hipBLAS equivalent: unsupported-api
// errors with a fix that says what to do instead.
// RUN: not %gpuport translate --hip-version 5.2 %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cublas_v2.h>

void old(cublasHandle_t h) {
  cublasInit();
  // CHECK: cublasInit();
  cublasSetMathMode(h, CUBLAS_TENSOR_OP_MATH);
  // CHECK-NEXT: cublasSetMathMode(h, CUBLAS_TENSOR_OP_MATH);
  cublasShutdown();
  // CHECK-NEXT: cublasShutdown();
}
// REPORT: :9:3: error: 'cublasInit' (cublas) has no HIP equivalent [unsupported-api]
// REPORT-NEXT: fix: {{.*}}hipblasCreate
// REPORT: :11:3: error: 'cublasSetMathMode' {{.*}}[unsupported-api]
// REPORT: :11:24: error: 'CUBLAS_TENSOR_OP_MATH' {{.*}}[unsupported-api]
// REPORT: :13:3: error: 'cublasShutdown' {{.*}}[unsupported-api]
// REPORT: 4 errors
