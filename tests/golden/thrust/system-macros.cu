// Thrust's CUDA-system macros become rocThrust's HIP ones: THRUST_DEVICE_SYSTEM_CUDA ->
// THRUST_DEVICE_SYSTEM_HIP, and the CUDA system header thrust/system/cuda/execution_policy.h
// -> thrust/system/hip/execution_policy.h. THRUST_DEVICE_SYSTEM itself stays.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <thrust/system/cuda/execution_policy.h>
// CHECK: #include <thrust/system/hip/execution_policy.h>

#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA
// CHECK: #if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_HIP
int on_gpu = 1;
#endif
// REPORT: 0 errors
