// With --fix-warp-size a ballot stored in 32 bits gets a 64-bit type: unsigned ->
// unsigned long long, const uint32_t -> const unsigned long long.
// RUN: %gpuport translate --fix-warp-size %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cstdint>

__global__ void vote(const float* x, unsigned long long* out) {
  unsigned b = __ballot_sync(0xffffffff, x[threadIdx.x] > 0.0f);
  // CHECK: unsigned long long b = __ballot(x[threadIdx.x] > 0.0f);
  const uint32_t c = __ballot_sync(0xffffffff, x[threadIdx.x] < 0.0f);
  // CHECK-NEXT: const unsigned long long c = __ballot(x[threadIdx.x] < 0.0f);
  out[threadIdx.x] = b | c;
}
// REPORT: :8:3: warning: '__ballot_sync' result stored in 32 bits{{.*}}[warp-ballot-32bit]
// REPORT-NEXT: {{^    fixed: unsigned long long$}}
// REPORT: :10:3: warning: '__ballot_sync' result stored in 32 bits{{.*}}[warp-ballot-32bit]
// REPORT-NEXT: {{^    fixed: const unsigned long long$}}
// REPORT: 0 errors, 2 warnings
