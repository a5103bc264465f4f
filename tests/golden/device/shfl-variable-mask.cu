// A lane mask that is not the full mask is still dropped (HIP 5.2 has no *_sync shuffles),
// but the port may now read lanes the mask excluded: each one gets a warp-mask-dropped warning
// naming the mask and the HIP function, at the mask argument.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__device__ float partial(float v, unsigned active) {
  float a = __shfl_down_sync(active, v, 1);
  // CHECK: float a = __shfl_down(v, 1);
  float b = __shfl_xor_sync(0x0000ffff, v, 2);
  // CHECK-NEXT: float b = __shfl_xor(v, 2);
  return a + b;
}
// REPORT: shfl-variable-mask.cu:8:30: warning: lane mask 'active' dropped: __shfl_down acts on all active lanes of the wavefront [warp-mask-dropped]
// REPORT-NEXT: fix: check that every lane named by the mask is active here
// REPORT: shfl-variable-mask.cu:10:29: warning: lane mask '0x0000ffff' dropped: __shfl_xor {{.*}}[warp-mask-dropped]
// REPORT: 0 errors, 2 warnings
