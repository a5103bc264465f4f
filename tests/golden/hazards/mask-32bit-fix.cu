// With --fix-warp-size a named 32-bit full mask becomes the 64-bit full mask.
// RUN: %gpuport translate --fix-warp-size %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__device__ unsigned long long active() {
  const unsigned long long kMask = 0xffffffff;
  // CHECK: const unsigned long long kMask = 0xffffffffffffffffull;
  return kMask;
}
// REPORT: mask-32bit-fix.cu:6:36: warning: 32-bit full lane mask{{.*}}[warp-mask-32bit]
// REPORT-NEXT: {{^    fixed: 0xffffffffffffffffull$}}
// REPORT: 0 errors, 1 warnings
