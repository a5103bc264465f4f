// Kernels named through a namespace are kept with their qualification.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

namespace kernels { namespace detail { __global__ void zero(int* p) {} } }

void run(int* p) {
  kernels::detail::zero<<<1, 32>>>(p);
  // CHECK: {{^}}  kernels::detail::zero<<<1, 32>>>(p);
  ::kernels::detail::zero<<<2, 32>>>(p);
  // CHECK-NEXT: {{^}}  ::kernels::detail::zero<<<2, 32>>>(p);
}
// REPORT: 0 errors, 0 warnings
