// A named lane mask initialised to 0xffffffff is only half a 64-lane wavefront:
// warp-mask-32bit at the literal, fix 0xffffffffffffffffull; the literal stays without
// --fix-warp-size.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__device__ unsigned long long active(int p) {
  const unsigned long long FULL_MASK = 0xffffffff;
  // CHECK: const unsigned long long FULL_MASK = 0xffffffff;
  unsigned long long lane_mask = 0xFFFFFFFFu;
  // CHECK-NEXT: unsigned long long lane_mask = 0xFFFFFFFFu;
  return p ? FULL_MASK : lane_mask;
}
// REPORT: mask-32bit.cu:8:40: warning: 32-bit full lane mask; AMD wavefronts have up to 64 lanes [warp-mask-32bit]
// REPORT-NEXT: {{^    fix: 0xffffffffffffffffull$}}
// REPORT: mask-32bit.cu:10:34: warning: 32-bit full lane mask{{.*}}[warp-mask-32bit]
// REPORT: 0 errors, 2 warnings
