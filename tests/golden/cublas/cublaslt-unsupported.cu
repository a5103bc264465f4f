// cuBLASLt has no drop-in HIP equivalent (hipBLASLt differs): the header is an
// unsupported-header error and each cublasLt name an unsupported-api error; nothing is
// renamed and the tool exits 1.
// RUN: not %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cublasLt.h>
// CHECK: #include <cublasLt.h>

void lt() {
  cublasLtHandle_t lt;
  // CHECK: cublasLtHandle_t lt;
  cublasLtCreate(&lt);
  // CHECK-NEXT: cublasLtCreate(&lt);
}
// REPORT: cublaslt-unsupported.cu:6:10: error: {{.*}}[unsupported-header]
// REPORT: cublaslt-unsupported.cu:10:3: error: 'cublasLtHandle_t' (cublas) has no HIP equivalent [unsupported-api]
// REPORT: cublaslt-unsupported.cu:12:3: error: 'cublasLtCreate' (cublas) has no HIP equivalent [unsupported-api]
// REPORT-NEXT: fix: {{.*}}hipBLASLt
// REPORT: 3 errors
