// A CUDA header included with quotes is still the CUDA header: it is mapped and keeps the
// quote style.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include "cuda_runtime.h"
#include "curand_kernel.h"
// CHECK: {{^}}#include "hip/hip_runtime.h"
// CHECK-NEXT: {{^}}#include "hiprand/hiprand_kernel.h"
// REPORT: 0 errors, 0 warnings
