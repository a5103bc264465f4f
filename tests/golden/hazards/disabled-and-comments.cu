// Hazard patterns inside comments, string literals and #if 0 blocks are not code: none is
// reported and none is rewritten.
// RUN: %gpuport translate --fix-warp-size %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__global__ void k(int* out, const char** msg) {
  // lane = threadIdx.x & 31; warp = threadIdx.x / 32;
  *msg = "lane = tid % 32";
  // CHECK: *msg = "lane = tid % 32";
#if 0
  int lane = threadIdx.x & 31;
  // CHECK: int lane = threadIdx.x & 31;
#endif
  out[0] = 0;
}
// REPORT-NOT: warning:
// REPORT: 0 errors, 0 warnings
