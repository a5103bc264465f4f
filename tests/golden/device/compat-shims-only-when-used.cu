// Each compatibility shim is added only to a file that calls what it supplies, once, and a
// second translation of the output keeps it and adds nothing.
// RUN: %gpuport translate %s 2>/dev/null > %t.hip
// RUN: grep -v -e CHECK -e RUN %t.hip | FileCheck %s
// RUN: %gpuport translate %t.hip 2>/dev/null | diff %t.hip -
// RUN: grep -c '^#define GPUPORT_AMD_ACTIVEMASK' %t.hip | FileCheck --check-prefix=ONCE %s
#include <cuda_runtime.h>
// CHECK: #include <hip/hip_runtime.h>
// CHECK-NEXT: #if defined(__HIP_PLATFORM_AMD__) && (HIP_VERSION < 60200000 || !defined(HIP_ENABLE_WARP_SYNC_BUILTINS)) && \
// CHECK-NEXT: !defined(GPUPORT_AMD_ACTIVEMASK)
// CHECK-NOT: GPUPORT_NVIDIA_HOST_FUNC
// CHECK-NOT: GPUPORT_NVIDIA_WARP_VOTES
// CHECK-NOT: GPUPORT_WAVE64_SHFL
// ONCE: 1
__device__ unsigned long long lanes() { return __activemask(); }
__device__ unsigned long long more_lanes() { return __activemask(); }
