// The SARIF report gives each hazard as a result with its rule id, level and region; the
// message carries the advice.
// RUN: %gpuport translate --report sarif %s 2>%t.sarif | grep -v -e CHECK -e RUN -e SARIF | FileCheck %s
// RUN: FileCheck --check-prefix=SARIF %s < %t.sarif

__global__ void k(int* out) { out[threadIdx.x / 32] = 1; }
// CHECK: __global__ void k(int* out) { out[threadIdx.x / 32] = 1; }
// SARIF: "results": [
// SARIF: "level": "warning",
// SARIF: "startColumn": 49,
// SARIF-NEXT: "startLine": 6
// SARIF: "text": "'/ 32' divides by a 32-lane warp size. Fix: / warpSize"
// SARIF: "ruleId": "warp-size-literal"
