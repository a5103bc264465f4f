// `/ 32` and `>> 5` on values that are not thread or lane indices (an element count, a byte
// size) are ordinary arithmetic: not reported, not rewritten.
// RUN: %gpuport translate --fix-warp-size %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__global__ void k(int* out, int n, unsigned bytes) {
  int words = n / 32;
  // CHECK: int words = n / 32;
  unsigned chunks = bytes >> 5;
  // CHECK-NEXT: unsigned chunks = bytes >> 5;
  out[0] = words + chunks;
}
// REPORT-NOT: warp-size-literal
// REPORT: 0 errors, 0 warnings
