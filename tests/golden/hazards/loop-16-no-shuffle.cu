// A loop starting at 16 with no shuffle in its body is not a warp reduction: not reported,
// not rewritten, even with --fix-warp-size.
// RUN: %gpuport translate --fix-warp-size %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__global__ void unroll(float* a) {
  float acc = 0.0f;
  for (int i = 16; i > 0; i /= 2)
    acc += a[threadIdx.x * 16 + i];
  // CHECK: for (int i = 16; i > 0; i /= 2)
  // CHECK-NEXT: acc += a[threadIdx.x * 16 + i];
  a[threadIdx.x] = acc;
}
// CHECK-NOT: warpSize
// REPORT: 0 errors, 0 warnings
