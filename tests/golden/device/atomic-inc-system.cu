// atomicInc_system and atomicDec_system have no system-scope form in HIP 5.2: an
// unsupported-api error each, the calls left unchanged, exit status 1.
// RUN: not %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__global__ void ring(unsigned* head, unsigned* tail) {
  atomicInc_system(head, 1023u);
  // CHECK: atomicInc_system(head, 1023u);
  atomicDec_system(tail, 1023u);
  // CHECK-NEXT: atomicDec_system(tail, 1023u);
}
// REPORT: :7:3: error: 'atomicInc_system' (device) has no HIP equivalent [unsupported-api]
// REPORT: :9:3: error: 'atomicDec_system' (device) has no HIP equivalent [unsupported-api]
// REPORT: 2 errors, 0 warnings
