// The bfloat16 header becomes hip/hip_bfloat16.h.
// RUN: %gpuport translate --hip-version 5.2 %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cstdio>
#include <cuda_bf16.h>
// CHECK: {{^}}#include <cstdio>
// CHECK-NEXT: {{^}}#include <hip/hip_bfloat16.h>
int placeholder = 0;
// CHECK-NEXT: {{^}}int placeholder = 0;
// REPORT: 0 errors, 0 warnings
