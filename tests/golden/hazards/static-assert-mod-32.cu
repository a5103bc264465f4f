// A divisibility check such as static_assert(BLOCK % 32 == 0) is not lane arithmetic: not
// reported at file scope, inside a kernel, or in a kernel template, and never rewritten.
// RUN: %gpuport translate --fix-warp-size %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
constexpr int BLOCK = 256;
static_assert(BLOCK % 32 == 0, "whole warps");
// CHECK: static_assert(BLOCK % 32 == 0, "whole warps");

template <int THREADS>
__global__ void k(float* out) {
  static_assert(THREADS % 32 == 0, "THREADS must be a multiple of 32");
  // CHECK: static_assert(THREADS % 32 == 0, "THREADS must be a multiple of 32");
  static_assert(BLOCK % 32 == 0);
  // CHECK-NEXT: static_assert(BLOCK % 32 == 0);
  out[threadIdx.x] = 0.0f;
}
// REPORT-NOT: warp-lane-arithmetic
// REPORT: 0 errors, 0 warnings
