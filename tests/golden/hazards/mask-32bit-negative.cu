// 0xffffffff that is not a lane mask (a hash constant, a bit pattern in host code, a mask
// argument that the port drops anyway) is not warp-mask-32bit.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

unsigned hash(unsigned h) { return (h * 2654435761u) & 0xffffffff; }
// CHECK: unsigned hash(unsigned h) { return (h * 2654435761u) & 0xffffffff; }

__device__ int bcast(int v) {
  unsigned all_bits = 0xffffffff;
  // CHECK: unsigned all_bits = 0xffffffff;
  return __shfl_sync(0xffffffff, v, 0) + (int)all_bits;
  // CHECK-NEXT: return __shfl(v, 0) + (int)all_bits;
}
// REPORT-NOT: warp-mask-32bit
// REPORT: 0 errors, 0 warnings
