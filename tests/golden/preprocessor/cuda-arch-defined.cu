// defined(__CUDA_ARCH__) in #if and #elif becomes defined(__HIP_DEVICE_COMPILE__); the rest
// of the condition is untouched.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

#if defined(__CUDA_ARCH__) && !defined(MY_HOST_ONLY)
// CHECK: {{^}}#if defined(__HIP_DEVICE_COMPILE__) && !defined(MY_HOST_ONLY){{$}}
#define WHERE 1
#elif !defined __CUDA_ARCH__
// CHECK: {{^}}#elif !defined __HIP_DEVICE_COMPILE__{{$}}
#define WHERE 0
#endif
// REPORT: 0 errors, 0 warnings
