// `#define WARP_SIZE 32` fixes the warp size at 32: a warp-size-constant warning at the value,
// with advice (there is no safe automatic fix, so the line is unchanged even with
// --fix-warp-size and the report says "fix:", not "fixed:").
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
// RUN: %gpuport translate --fix-warp-size %s 2>%t.fix.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.fix.err
#define WARP_SIZE 32
// CHECK: #define WARP_SIZE 32

__global__ void k(int* out) { out[threadIdx.x] = WARP_SIZE; }
// REPORT: warp-size-define.cu:8:19: warning: 'WARP_SIZE' fixes the warp size at 32; {{.*}}[warp-size-constant]
// REPORT-NEXT: {{^    fix: .*warpSize}}
// REPORT: 0 errors, 1 warnings
