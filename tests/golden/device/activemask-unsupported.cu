// __activemask has no HIP 5.2 equivalent: an unsupported-api error whose fix suggests
// __ballot(1); the call is left unchanged and the tool exits 1.
// RUN: not %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__device__ unsigned long long active_lanes() {
  unsigned long long m = __activemask();
  // CHECK: unsigned long long m = __activemask();
  return m;
}
// REPORT: activemask-unsupported.cu:7:26: error: '__activemask' (device) has no HIP equivalent [unsupported-api]
// REPORT-NEXT: fix: {{.*}}__ballot(1)
// REPORT: 1 errors, 0 warnings
