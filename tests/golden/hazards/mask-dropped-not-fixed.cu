// A partial lane mask dropped from a *_sync call is reported (warp-mask-dropped) and has no
// automatic fix: even with --fix-warp-size the report says "fix:", not "fixed:".
// RUN: %gpuport translate --fix-warp-size %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__device__ int lower_half(int v) {
  return __shfl_down_sync(0x0000ffffu, v, 1);
  // CHECK: return __shfl_down(v, 1);
}
// REPORT: mask-dropped-not-fixed.cu:7:27: warning: lane mask '0x0000ffffu' dropped: __shfl_down acts on all active lanes of the wavefront [warp-mask-dropped]
// REPORT-NEXT: {{^    fix: }}
// REPORT-NOT: fixed:
// REPORT: 0 errors, 1 warnings
