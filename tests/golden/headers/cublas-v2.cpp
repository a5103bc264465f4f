// cuBLAS (v2 API) becomes hipBLAS, under the hipblas/ folder.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cstdio>
#include <cublas_v2.h>
// CHECK: {{^}}#include <cstdio>
// CHECK-NEXT: {{^}}#include <hipblas/hipblas.h>
int placeholder = 0;
// CHECK-NEXT: {{^}}int placeholder = 0;
// REPORT: 0 errors, 0 warnings
