// Integer bit intrinsics have the same names in HIP and are left unchanged.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__device__ unsigned bits(unsigned x, unsigned y, unsigned long long z) {
  int a = __popc(x) + __popcll(z);
  // CHECK: int a = __popc(x) + __popcll(z);
  int b = __clz(x) + __clzll(z);
  // CHECK-NEXT: int b = __clz(x) + __clzll(z);
  int c = __ffs(x) + __ffsll(z);
  // CHECK-NEXT: int c = __ffs(x) + __ffsll(z);
  unsigned d = __brev(x) ^ (unsigned)__brevll(z);
  // CHECK-NEXT: unsigned d = __brev(x) ^ (unsigned)__brevll(z);
  unsigned e = __byte_perm(x, y, 0x5410);
  // CHECK-NEXT: unsigned e = __byte_perm(x, y, 0x5410);
  unsigned f = __funnelshift_l(x, y, 3) + __funnelshift_r(x, y, 5);
  // CHECK-NEXT: unsigned f = __funnelshift_l(x, y, 3) + __funnelshift_r(x, y, 5);
  return a + b + c + d + e + f;
}
// REPORT: 0 errors, 0 warnings
