// Not warp-size constants: a 32 whose name does not say warp size (kBlockSize, TILE), a
// warp-size name with another value (WARP_SIZE 64), and a warp name that is a count
// (warpCount = 32). None is reported.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#define TILE 32
constexpr int kBlockSize = 32;
#define WARP_SIZE 64
constexpr int warpCount = 32;
// CHECK: #define TILE 32
// CHECK-NEXT: constexpr int kBlockSize = 32;
// CHECK-NEXT: #define WARP_SIZE 64
// CHECK-NEXT: constexpr int warpCount = 32;
// REPORT-NOT: warp-size-constant
// REPORT: 0 errors, 0 warnings
