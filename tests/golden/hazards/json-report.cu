// The JSON report lists each hazard with its code, severity, line, column, fix and whether it
// was fixed; the summary counts them. Here with --fix-warp-size: the lane arithmetic in a
// __device__ function is fixed, the one in a __host__ __device__ function is not.
// RUN: %gpuport translate --fix-warp-size --report json %s 2>%t.json | grep -v -e CHECK -e RUN -e JSON | FileCheck %s
// RUN: FileCheck --check-prefix=JSON %s < %t.json

__device__ int lane_d(int tid) { return tid & 31; }
// CHECK: __device__ int lane_d(int tid) { return tid & (warpSize - 1); }
__host__ __device__ int lane_hd(int tid) { return tid % 32; }
// CHECK-NEXT: __host__ __device__ int lane_hd(int tid) { return tid % 32; }

// JSON: "findings": [
// JSON: "code": "warp-lane-arithmetic",
// JSON-NEXT: "column": 47,
// JSON-NEXT: "file": "{{.*}}json-report.cu",
// JSON-NEXT: "fix": "(warpSize - 1)",
// JSON-NEXT: "fixed": true,
// JSON-NEXT: "line": 7,
// JSON-NEXT: "message": "'& 31' computes a lane index for 32-lane warps",
// JSON-NEXT: "severity": "warning"
// JSON: "code": "warp-lane-arithmetic",
// JSON-NEXT: "column": 57,
// JSON: "fix": "warpSize",
// JSON-NEXT: "fixed": false,
// JSON-NEXT: "line": 9,
// JSON: "summary": {
// JSON-NEXT: "errors": 0,
// JSON: "warnings": 2
