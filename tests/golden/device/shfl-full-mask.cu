// HIP 5.2 has only the mask-less shuffles: __shfl*_sync(mask, ...) becomes __shfl*(...) with
// the mask argument removed. A full 32-bit mask loses nothing and gets a note (warp-mask-dropped
// at note level, no warning, no warp-mask-32bit), and a width argument other than 32 is kept.
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
// REPORT: 8:25: note: full lane mask '0xffffffff' dropped: __shfl acts on all active lanes of the wavefront [warp-mask-dropped]
// REPORT: 10:28: note: full lane mask
// REPORT: 12:30: note: full lane mask
// REPORT: 14:29: note: full lane mask
// REPORT-NOT: warning
// REPORT: 0 errors, 0 warnings, 4 notes
