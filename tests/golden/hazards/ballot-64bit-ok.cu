// A ballot kept in 64 bits (unsigned long long, auto, uint64_t) or consumed by a 64-bit
// intrinsic (__popcll, __ffsll) is not a hazard: nothing is reported.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cstdint>

__global__ void vote(const int* x, int* out) {
  unsigned long long a = __ballot_sync(0xffffffff, x[threadIdx.x] > 0);
  // CHECK: unsigned long long a = __ballot(x[threadIdx.x] > 0);
  auto b = __ballot_sync(0xffffffff, x[threadIdx.x] < 0);
  // CHECK-NEXT: auto b = __ballot(x[threadIdx.x] < 0);
  uint64_t c = __ballot_sync(0xffffffff, x[threadIdx.x] == 0);
  // CHECK-NEXT: uint64_t c = __ballot(x[threadIdx.x] == 0);
  out[threadIdx.x] = __popcll(a) + __ffsll(b) + __popcll(c) + __popcll(__ballot_sync(0xffffffff, 1));
  // CHECK-NEXT: out[threadIdx.x] = __popcll(a) + __ffsll(b) + __popcll(c) + __popcll(__ballot(1));
}
// REPORT-NOT: warp-ballot-32bit
// REPORT: 0 errors, 0 warnings
