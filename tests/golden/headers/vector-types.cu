// vector_types.h (float4, int2, ...) becomes hip/hip_vector_types.h.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cstdio>
#include <vector_types.h>
// CHECK: {{^}}#include <cstdio>
// CHECK-NEXT: {{^}}#include <hip/hip_vector_types.h>
int placeholder = 0;
// CHECK-NEXT: {{^}}int placeholder = 0;
// REPORT: 0 errors, 0 warnings
