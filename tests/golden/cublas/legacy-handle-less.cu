// The legacy cuBLAS API (cublas.h) has handle-less functions under the names cublas_v2.h maps
// to the handle API: cublasSscal(n, alpha, x, incx) there, cublasSscal_v2(handle, n, &alpha, x,
// incx) here. hipBLAS has only the handle form, so a legacy call (told apart by its argument
// count, from the CUDA headers) is left as written and reported; a handle call is translated,
// and so are the functions both APIs share (cublasSetMatrix).
// RUN: not %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include "cublas.h"
void legacy(float* x, int n, float alpha) {
  cublasSscal(n, alpha, x, 1);
  // CHECK: cublasSscal(n, alpha, x, 1);
}
void handle(cublasHandle_t h, float* x, int n, float alpha, const float* a, float* d) {
  cublasSscal(h, n, &alpha, x, 1);
  // CHECK: hipblasSscal(h, n, &alpha, x, 1);
  cublasStatus stat = cublasSetMatrix(n, n, sizeof(float), a, n, d, n);
  // CHECK: hipblasStatus_t stat = hipblasSetMatrix(n, n, sizeof(float), a, n, d, n);
}
// REPORT: 10:3: error: 'cublasSscal' with 4 arguments has no HIP equivalent [unsupported-api]
// REPORT-NEXT: fix: the legacy handle-less cuBLAS API (cublas.h): hipBLAS and rocBLAS take a handle first: create one and call hipblasSscal(handle, ...)
// REPORT-NOT: error
// REPORT: 1 errors
