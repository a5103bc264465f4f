// libcu++ headers (<cuda/std/...>) have no HIP 5.2 counterpart: the include is kept as it
// is and reported as an error (unsupported-header) at the header name; exit status 1.
// RUN: not %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>
#include <cuda/std/atomic>
// CHECK: {{^}}#include <hip/hip_runtime.h>
// CHECK-NEXT: {{^}}#include <cuda/std/atomic>
// REPORT: {{.*}}unsupported-libcudacxx.cu:6:10: error: <cuda/std/atomic> {{.*}}[unsupported-header]
// REPORT: 1 errors, 0 warnings
