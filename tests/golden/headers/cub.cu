// CUB becomes hipCUB: every cub/ header maps to the single hipcub/hipcub.hpp.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cstdio>
#include <cub/cub.cuh>
// CHECK: {{^}}#include <cstdio>
// CHECK-NEXT: {{^}}#include <hipcub/hipcub.hpp>
int placeholder = 0;
// CHECK-NEXT: {{^}}int placeholder = 0;
// REPORT: 0 errors, 0 warnings
