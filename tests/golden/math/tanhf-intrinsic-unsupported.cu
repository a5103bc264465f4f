// __tanhf (the sm_75+ hardware tanh) has no HIP 5.2 intrinsic: an unsupported-api error.
// RUN: not %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__device__ float act(float x) { return __tanhf(x); }
// CHECK: __device__ float act(float x) { return __tanhf(x); }
// REPORT: tanhf-intrinsic-unsupported.cu:5:40: error: '__tanhf' {{.*}}[unsupported-api]
// REPORT: 1 errors, 0 warnings
