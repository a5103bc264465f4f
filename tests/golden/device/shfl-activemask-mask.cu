// __activemask() as the lane mask of a shuffle means "the lanes active here", which is what
// the mask-less HIP shuffle does: the argument is dropped with a note (no warning), and since
// no __activemask call is left in the output there is no unsupported-api error either.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__device__ int broadcast(int v) {
  return __shfl_sync(__activemask(), v, 0);
  // CHECK: return __shfl(v, 0);
}
// REPORT: 8:22: note: full lane mask '__activemask()' dropped: __shfl acts on all active lanes of the wavefront [warp-mask-dropped]
// REPORT-NOT: unsupported-api
// REPORT: 0 errors, 0 warnings, 1 notes
