// Fast approximate intrinsics (__expf, __sinf, __fdividef, __powf, __saturatef, ...) exist
// in HIP under the same names.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__device__ float fast(float x, float y) {
  float a = __expf(x) + __logf(y) + __sinf(x) + __cosf(x);
  // CHECK: float a = __expf(x) + __logf(y) + __sinf(x) + __cosf(x);
  float b = __fdividef(x, y) + __powf(x, y) + __saturatef(x);
  // CHECK-NEXT: float b = __fdividef(x, y) + __powf(x, y) + __saturatef(x);
  float c = __exp10f(x) + __log2f(y) + __tanf(x);
  // CHECK-NEXT: float c = __exp10f(x) + __log2f(y) + __tanf(x);
  return a + b + c;
}
// REPORT: 0 errors, 0 warnings
