// In __host__ __device__ functions warpSize is not usable on the host side, so hazards are
// reported but never fixed, even with --fix-warp-size ("fix:", not "fixed:"); the same code in
// a __device__ function is fixed.
// RUN: %gpuport translate --fix-warp-size %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__host__ __device__ int lane_hd(int tid) { return tid & 31; }
// CHECK: __host__ __device__ int lane_hd(int tid) { return tid & 31; }
__host__ __device__ int warp_hd(int tid) { return tid / 32; }
// CHECK-NEXT: __host__ __device__ int warp_hd(int tid) { return tid / 32; }
__device__ int lane_d(int tid) { return tid & 31; }
// CHECK-NEXT: __device__ int lane_d(int tid) { return tid & (warpSize - 1); }
// REPORT: host-device-not-fixed.cu:7:57: warning: '& 31' {{.*}}[warp-lane-arithmetic]
// REPORT-NEXT: {{^    fix: \(warpSize - 1\)$}}
// REPORT: host-device-not-fixed.cu:9:57: warning: '/ 32' {{.*}}[warp-size-literal]
// REPORT-NEXT: {{^    fix: / warpSize$}}
// REPORT: host-device-not-fixed.cu:11:47: warning: '& 31' {{.*}}[warp-lane-arithmetic]
// REPORT-NEXT: {{^    fixed: \(warpSize - 1\)$}}
// REPORT: 0 errors, 3 warnings
