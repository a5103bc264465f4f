// The profiler control header becomes hip/hip_runtime_api.h, which declares hipProfilerStart
// and hipProfilerStop (hip/hip_profile.h holds only empty marker macros).
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cstdio>
#include <cuda_profiler_api.h>
// CHECK: {{^}}#include <cstdio>
// CHECK-NEXT: {{^}}#include <hip/hip_runtime_api.h>
void f() { cudaProfilerStart(); }
// CHECK-NEXT: {{^}}void f() { hipProfilerStart(); }
// REPORT: 0 errors, 0 warnings
