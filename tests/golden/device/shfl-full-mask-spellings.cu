// Every spelling of "all lanes" counts as a full mask and is dropped with a note, not a warning:
// 0xFFFFFFFFu, -1, ~0u and 0xffffffffffffffffull.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__device__ int spellings(int v) {
  int a = __shfl_sync(0xFFFFFFFFu, v, 0);
  // CHECK: int a = __shfl(v, 0);
  int b = __shfl_sync(-1, v, 1);
  // CHECK-NEXT: int b = __shfl(v, 1);
  int c = __shfl_sync(~0u, v, 2);
  // CHECK-NEXT: int c = __shfl(v, 2);
  int d = __shfl_sync(0xffffffffffffffffull, v, 3);
  // CHECK-NEXT: int d = __shfl(v, 3);
  return a + b + c + d;
}
// REPORT-COUNT-4: note: full lane mask '{{[^']+}}' dropped: __shfl acts on all active lanes of the wavefront [warp-mask-dropped]
// REPORT-NOT: warning
// REPORT: 0 errors, 0 warnings, 4 notes
