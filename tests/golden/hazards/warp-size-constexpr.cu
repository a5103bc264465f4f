// Compile-time warp-size constants named like a warp size and equal to 32 are reported
// (warp-size-constant): constexpr int kWarpSize = 32, static const unsigned warp_lanes = 32u,
// and an enumerator WARP_THREADS = 32.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
constexpr int kWarpSize = 32;
// CHECK: constexpr int kWarpSize = 32;
static const unsigned warp_lanes = 32u;
// CHECK-NEXT: static const unsigned warp_lanes = 32u;
enum { WARP_THREADS = 32, BLOCK = 256 };
// CHECK-NEXT: enum { WARP_THREADS = 32, BLOCK = 256 };
// REPORT: warp-size-constexpr.cu:6:27: warning: 'kWarpSize' fixes the warp size at 32{{.*}}[warp-size-constant]
// REPORT: warp-size-constexpr.cu:8:36: warning: 'warp_lanes' fixes the warp size at 32{{.*}}[warp-size-constant]
// REPORT: warp-size-constexpr.cu:10:23: warning: 'WARP_THREADS' fixes the warp size at 32{{.*}}[warp-size-constant]
// REPORT: 0 errors, 3 warnings
