// The device-scope atomics have the same names in HIP and are left unchanged, with no finding.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__global__ void atomics(int* i, unsigned* u, float* f, unsigned long long* ull) {
  atomicAdd(f, 1.0f);
  // CHECK: atomicAdd(f, 1.0f);
  atomicSub(i, 2);
  // CHECK-NEXT: atomicSub(i, 2);
  int old = atomicExch(i, 3);
  // CHECK-NEXT: int old = atomicExch(i, 3);
  atomicCAS(ull, 0ull, 1ull);
  // CHECK-NEXT: atomicCAS(ull, 0ull, 1ull);
  atomicMax(i, old);
  // CHECK-NEXT: atomicMax(i, old);
  atomicMin(i, old);
  // CHECK-NEXT: atomicMin(i, old);
  atomicAnd(u, 0xf0u);
  // CHECK-NEXT: atomicAnd(u, 0xf0u);
  atomicOr(u, 1u);
  // CHECK-NEXT: atomicOr(u, 1u);
  atomicXor(u, 3u);
  // CHECK-NEXT: atomicXor(u, 3u);
  atomicInc(u, 100u);
  // CHECK-NEXT: atomicInc(u, 100u);
  atomicDec(u, 100u);
  // CHECK-NEXT: atomicDec(u, 100u);
}
// REPORT: 0 errors, 0 warnings
