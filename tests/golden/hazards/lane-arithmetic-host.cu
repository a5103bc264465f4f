// Host code is not warp code: `% 32` and `& 31` in a host function are not reported, even on a
// variable named tid, and --fix-warp-size does not touch them.
// RUN: %gpuport translate --fix-warp-size %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

int bucket(int tid, int bytes) {
  int a = tid % 32;
  // CHECK: int a = tid % 32;
  int b = bytes & 31;
  // CHECK-NEXT: int b = bytes & 31;
  return a + b;
}
// CHECK-NOT: warpSize
// REPORT-NOT: warp-lane-arithmetic
// REPORT: 0 errors, 0 warnings
