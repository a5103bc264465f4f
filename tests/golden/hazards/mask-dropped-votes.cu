// Votes with a computed mask (__ballot_sync(active, p), __all_sync(m, p)) lose the mask:
// one warp-mask-dropped warning per call, naming the HIP function.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__device__ int votes(unsigned active, int p) {
  unsigned long long b = __ballot_sync(active, p);
  // CHECK: unsigned long long b = __ballot(p);
  int all = __all_sync(active & 0xff, p);
  // CHECK-NEXT: int all = __all(p);
  return (int)b + all;
}
// REPORT: mask-dropped-votes.cu:7:40: warning: lane mask 'active' dropped: __ballot acts on {{.*}}[warp-mask-dropped]
// REPORT: mask-dropped-votes.cu:9:24: warning: lane mask 'active & 0xff' dropped: __all acts on {{.*}}[warp-mask-dropped]
// REPORT: 0 errors, 2 warnings
