// An API name used as a value (function pointer, decltype) is still the API and is renamed.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

auto freer = &cudaFree;
// CHECK: {{^}}auto freer = &hipFree;
using sync_fn = decltype(cudaDeviceSynchronize);
// CHECK-NEXT: {{^}}using sync_fn = decltype(hipDeviceSynchronize);
// REPORT: 0 errors, 0 warnings
