// An include inside a conditional block is not a duplicate of an unconditional one: it is
// translated and kept, because the other copy might not be seen in every configuration.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#ifdef USE_DRIVER_API
#include <cuda.h>
#endif
#include <cuda_runtime.h>
#if defined(HAVE_RT)
#include <cuda_runtime.h>
#endif
int placeholder = 0;
// CHECK: {{^}}#ifdef USE_DRIVER_API
// CHECK-NEXT: {{^}}#include <hip/hip_runtime.h>
// CHECK-NEXT: {{^}}#endif
// CHECK-NEXT: {{^}}#include <hip/hip_runtime.h>
// CHECK-NEXT: {{^}}#if defined(HAVE_RT)
// CHECK-NEXT: {{^}}#include <hip/hip_runtime.h>
// CHECK-NEXT: {{^}}#endif
// CHECK-NEXT: {{^}}int placeholder = 0;
// REPORT: 0 errors, 0 warnings
