// <mma.h> (WMMA) has no drop-in HIP header (rocWMMA's API differs): kept and reported as an
// unsupported-header error.
// RUN: not %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>
#include <mma.h>
// CHECK: {{^}}#include <hip/hip_runtime.h>
// CHECK-NEXT: {{^}}#include <mma.h>
// REPORT: {{.*}}unsupported-mma.cu:6:10: error: <mma.h> {{.*}}[unsupported-header]
// REPORT: 1 errors
