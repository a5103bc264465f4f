// Standard and third-party headers are never touched, even in a file that is translated.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <vector>
#include <cstdio>
#include <cuda_runtime.h>
#include <math.h>
#include <Eigen/Dense>
// CHECK: {{^}}#include <vector>
// CHECK-NEXT: {{^}}#include <cstdio>
// CHECK-NEXT: {{^}}#include <hip/hip_runtime.h>
// CHECK-NEXT: {{^}}#include <math.h>
// CHECK-NEXT: {{^}}#include <Eigen/Dense>
// REPORT: 0 errors, 0 warnings
