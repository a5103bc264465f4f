// HIP 5.2 has no block-scope atomics: atomicX_block becomes the device-scope atomicX (a
// stronger scope, so still correct). The _system forms exist in HIP and stay.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__global__ void scoped(int* counter, float* sum, unsigned* bits) {
  atomicAdd_block(counter, 1);
  // CHECK: atomicAdd(counter, 1);
  atomicCAS_block(counter, 0, 1);
  // CHECK-NEXT: atomicCAS(counter, 0, 1);
  atomicMax_block(counter, 7);
  // CHECK-NEXT: atomicMax(counter, 7);
  atomicOr_block(bits, 4u);
  // CHECK-NEXT: atomicOr(bits, 4u);
  atomicAdd_system(sum, 1.0f);
  // CHECK-NEXT: atomicAdd_system(sum, 1.0f);
  atomicExch_system(counter, 0);
  // CHECK-NEXT: atomicExch_system(counter, 0);
}
// CHECK-NOT: _block
// REPORT: 0 errors, 0 warnings
