// HIP 5.2 has no __syncwarp: wavefront lanes run in lockstep, so only memory ordering is
// needed and __syncwarp becomes __threadfence_block(). A mask argument, full or not, is
// dropped because __threadfence_block takes none.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__global__ void exchange(int* data) {
  __shared__ int s[64];
  s[threadIdx.x] = data[threadIdx.x];
  __syncwarp();
  // CHECK: __threadfence_block();
  data[threadIdx.x] = s[threadIdx.x ^ 1];
  __syncwarp(0xffffffff);
  // CHECK-NEXT: data[threadIdx.x] = s[threadIdx.x ^ 1];
  // CHECK-NEXT: __threadfence_block();
  // CHECK-NOT: syncwarp
  // CHECK-NOT: 0xffffffff
}
// CHECK: }
// REPORT: 13:14: note: full lane mask '0xffffffff' dropped: __threadfence_block acts on all active lanes of the wavefront [warp-mask-dropped]
// REPORT-NOT: error
// REPORT: 1 files translated (1 changed, {{[0-9]+}} rewrites)
// REPORT-SAME: 0 errors, 0 warnings
