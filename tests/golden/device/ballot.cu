// __ballot_sync(mask, p) becomes __ballot(p). Stored in a 64-bit variable it needs no
// warning (HIP's ballot is 64-bit); the mask is a full one, so nothing is reported.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__global__ void count_positive(const float* x, unsigned long long* out) {
  unsigned long long votes = __ballot_sync(0xffffffff, x[threadIdx.x] > 0.0f);
  // CHECK: unsigned long long votes = __ballot(x[threadIdx.x] > 0.0f);
  out[blockIdx.x] = votes;
  // CHECK-NEXT: out[blockIdx.x] = votes;
}
// REPORT-NOT: warning
// REPORT: 0 errors, 0 warnings
