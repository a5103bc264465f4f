// #ifdef/#ifndef on the device-compilation macro: __CUDA_ARCH__ becomes
// __HIP_DEVICE_COMPILE__, which is defined in exactly the same passes.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

__host__ __device__ int where() {
#ifdef __CUDA_ARCH__
  // CHECK: {{^}}#ifdef __HIP_DEVICE_COMPILE__{{$}}
  return 1;
#endif
#ifndef __CUDA_ARCH__
  // CHECK: {{^}}#ifndef __HIP_DEVICE_COMPILE__{{$}}
  return 0;
#endif
}
// REPORT: 0 errors, 0 warnings
