// A ballot stored in a 32-bit integer loses lanes 32-63 of a 64-lane wavefront:
// warp-ballot-32bit at the type, fix "unsigned long long". Without --fix-warp-size the type
// stays (the call itself still loses its mask and becomes __ballot).
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__global__ void vote(const float* x, unsigned* out) {
  unsigned b = __ballot_sync(0xffffffff, x[threadIdx.x] > 0.0f);
  // CHECK: unsigned b = __ballot(x[threadIdx.x] > 0.0f);
  int c = __ballot_sync(0xffffffff, x[threadIdx.x] < 0.0f);
  // CHECK-NEXT: int c = __ballot(x[threadIdx.x] < 0.0f);
  out[threadIdx.x] = b + c;
}
// REPORT: ballot-32bit.cu:8:3: warning: '__ballot_sync' result stored in 32 bits; AMD ballots and lane masks are 64-bit [warp-ballot-32bit]
// REPORT-NEXT: {{^    fix: unsigned long long$}}
// REPORT: ballot-32bit.cu:10:3: warning: '__ballot_sync' result stored in 32 bits{{.*}}[warp-ballot-32bit]
// REPORT: 0 errors, 2 warnings
