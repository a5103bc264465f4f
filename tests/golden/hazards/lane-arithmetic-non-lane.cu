// In device code, `% 32` and `& 31` on values that are not thread or lane indices (a byte
// count, an element count, an alignment test) are not lane arithmetic and are not reported.
// RUN: %gpuport translate --fix-warp-size %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__global__ void k(float* out, unsigned n, size_t bytes, const char* p) {
  if (n % 32 != 0) return;
  // CHECK: if (n % 32 != 0) return;
  size_t tail = bytes & 31;
  // CHECK-NEXT: size_t tail = bytes & 31;
  bool aligned = (reinterpret_cast<size_t>(p) % 32) == 0;
  // CHECK-NEXT: bool aligned = (reinterpret_cast<size_t>(p) % 32) == 0;
  out[0] = tail + aligned;
}
// CHECK-NOT: warpSize
// REPORT-NOT: warp-lane-arithmetic
// REPORT: 0 errors, 0 warnings
