// HIP 5.2 has only the mask-less shuffles: __shfl*_sync(mask, ...) becomes __shfl*(...) with
// the mask argument removed. A full 32-bit mask is dropped silently (no warp-mask-dropped,
// no warp-mask-32bit), and a width argument other than 32 is kept.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__device__ float shuffles(float v, int lane) {
  float a = __shfl_sync(0xffffffff, v, lane);
  // CHECK: float a = __shfl(v, lane);
  float b = __shfl_up_sync(0xffffffff, v, 1);
  // CHECK-NEXT: float b = __shfl_up(v, 1);
  float c = __shfl_down_sync(0xffffffff, v, 2);
  // CHECK-NEXT: float c = __shfl_down(v, 2);
  float d = __shfl_xor_sync(0xffffffff, v, 4, 16);
  // CHECK-NEXT: float d = __shfl_xor(v, 4, 16);
  return a + b + c + d;
}
// CHECK-NOT: _sync
// CHECK-NOT: 0xffffffff
// REPORT-NOT: warp-mask
// REPORT: 0 errors, 0 warnings
