// cuda_runtime.h and cuda.h both map to hip/hip_runtime.h: the second unconditional copy
// is removed (the whole line), the first stays where it was.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>
int placeholder = 0;
// CHECK: {{^}}#include <hip/hip_runtime.h>
// CHECK-NEXT: {{^}}#include <cstdio>
// CHECK-NEXT: {{^}}int placeholder = 0;
// REPORT: 0 errors, 0 warnings
