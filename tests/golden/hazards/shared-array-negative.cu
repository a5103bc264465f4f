// Shared arrays not sized by a 32-lane warp are not reported: a 16x17 tile, a 256-element
// block buffer, and a 32-element array that is not __shared__ (per-thread local memory).
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__global__ void tiles(float* out) {
  __shared__ float tile[16][17];
  // CHECK: __shared__ float tile[16][17];
  __shared__ float buf[256];
  // CHECK-NEXT: __shared__ float buf[256];
  float local[32];
  // CHECK-NEXT: float local[32];
  local[0] = tile[0][0] + buf[0];
  out[0] = local[0];
}
// REPORT-NOT: warp-shared-array
// REPORT: 0 errors, 0 warnings
