// The cuRAND device API header becomes hiprand/hiprand_kernel.h.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cstdio>
#include <curand_kernel.h>
// CHECK: {{^}}#include <cstdio>
// CHECK-NEXT: {{^}}#include <hiprand/hiprand_kernel.h>
int placeholder = 0;
// CHECK-NEXT: {{^}}int placeholder = 0;
// REPORT: 0 errors, 0 warnings
