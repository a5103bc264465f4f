// A file that shuffles gets the GPUPORT_WAVE64_SHFL shim (HIP's __shfl* over the whole wave64 on
// gfx10/gfx11, where they stay within a 32-lane half) once, right after its runtime include and
// before the shims that shuffle themselves, whatever its shuffles' number and spelling; the calls
// keep HIP's names, which the shim's macros route. A second translation keeps it and adds nothing.
// RUN: %gpuport translate %s 2>/dev/null > %t.hip
// RUN: grep -v -e CHECK -e RUN %t.hip | FileCheck %s
// RUN: %gpuport translate %t.hip 2>/dev/null | diff %t.hip -
// RUN: grep -c '^#define GPUPORT_WAVE64_SHFL ' %t.hip | FileCheck --check-prefix=ONCE %s
#include <cuda_runtime.h>
// CHECK: #include <hip/hip_runtime.h>
// CHECK-NEXT: #if defined(__HIP_DEVICE_COMPILE__) && (defined(__GFX10__) || defined(__GFX11__)) && __AMDGCN_WAVEFRONT_SIZE == 64 && !defined(GPUPORT_WAVE64_SHFL)
// CHECK-NEXT: #define GPUPORT_WAVE64_SHFL /* added by gpuport:
// CHECK: __builtin_amdgcn_permlane64(v)
// CHECK: GPUPORT_WAVE64_SHFL_FOR(unsigned long long)
// CHECK: #define __shfl gpuport_shfl
// CHECK-NEXT: #define __shfl_up gpuport_shfl_up
// CHECK-NEXT: #define __shfl_down gpuport_shfl_down
// CHECK-NEXT: #define __shfl_xor gpuport_shfl_xor
// CHECK-NEXT: #endif
// CHECK-NEXT: #if !defined(GPUPORT_REDUCE)
// ONCE: 1

__device__ float warp_sum(float v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}
// CHECK: v += __shfl_down(v, offset);

__device__ int butterfly(int v) {
  for (int mask = 1; mask < warpSize; mask *= 2) v += __shfl_xor(v, mask);
  return v;
}
// CHECK: v += __shfl_xor(v, mask);

__device__ double scan_and_broadcast(double v, int lane) {
  const double up = __shfl_up_sync(0xffffffff, v, 1);
  return (lane > 0 ? up : 0.0) + __shfl_sync(0xffffffff, v, 0);
}
// CHECK: const double up = __shfl_up(v, 1);
// CHECK: return (lane > 0 ? up : 0.0) + __shfl(v, 0);

__device__ unsigned total(unsigned v) { return __reduce_add_sync(0xffffffff, v); }
// CHECK: return gpuport_reduce_add(v);
