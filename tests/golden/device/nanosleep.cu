// __nanosleep has no HIP 5.2 wrapper: unsupported-api error whose fix names
// __builtin_amdgcn_s_sleep; the call is left unchanged.
// RUN: not %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__global__ void backoff(volatile int* flag) {
  while (*flag == 0) __nanosleep(128);
  // CHECK: while (*flag == 0) __nanosleep(128);
}
// REPORT: nanosleep.cu:7:22: error: '__nanosleep' (device) has no HIP equivalent [unsupported-api]
// REPORT-NEXT: fix: {{.*}}__builtin_amdgcn_s_sleep
// REPORT: 1 errors, 0 warnings
