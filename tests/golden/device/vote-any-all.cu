// __any_sync and __all_sync lose their mask and become HIP's __any and __all; the
// mask-less __any/__all are already HIP names and stay.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__device__ int votes(int p) {
  int a = __any_sync(0xffffffff, p != 0);
  // CHECK: int a = __any(p != 0);
  int b = __all_sync(0xffffffff, p > 0);
  // CHECK-NEXT: int b = __all(p > 0);
  int c = __any(p) + __all(p);
  // CHECK-NEXT: int c = __any(p) + __all(p);
  return a + b + c;
}
// REPORT: 0 errors, 0 warnings
