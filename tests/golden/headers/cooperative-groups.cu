// Cooperative groups become hip/hip_cooperative_groups.h, which in HIP 5.2 needs hip_runtime.h
// before it (it uses hipBlockDim_x and friends without including it).
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cstdio>
#include <cooperative_groups.h>
// CHECK: {{^}}#include <cstdio>
// CHECK-NEXT: {{^}}#include <hip/hip_runtime.h>
// CHECK-NEXT: {{^}}#include <hip/hip_cooperative_groups.h>
int placeholder = 0;
// CHECK-NEXT: {{^}}int placeholder = 0;
// REPORT: 0 errors, 0 warnings
