// An angled header whose name looks like CUDA's but that no table knows is kept and
// reported as a warning (unknown-header); warnings alone exit 0.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>
#include <cuda_made_up_extension.h>
// CHECK: {{^}}#include <hip/hip_runtime.h>
// CHECK-NEXT: {{^}}#include <cuda_made_up_extension.h>
// REPORT: {{.*}}unknown-header.cu:6:10: warning: <cuda_made_up_extension.h> {{.*}}[unknown-header]
// REPORT: 0 errors, 1 warnings
