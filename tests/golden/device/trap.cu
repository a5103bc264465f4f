// __trap() becomes abort(), which executes a trap in HIP device code.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__global__ void check(const int* v) {
  if (v[threadIdx.x] < 0) __trap();
  // CHECK: if (v[threadIdx.x] < 0) abort();
  // CHECK-NOT: __trap
}
// REPORT: 0 errors, 0 warnings
