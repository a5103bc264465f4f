// --to cuda: code written for 64-lane wavefronts is reported where it breaks on 32-lane warps:
// warpSize compared with 64, a 64-bit full mask, lane arithmetic by 64, a reduction starting at
// a 32-lane offset. HIP APIs without a CUDA counterpart are reported and left as written.
// RUN: %gpuport translate --to cuda %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <hip/hip_runtime.h>

__global__ void reduce(const float* x, float* out) {
  float v = x[threadIdx.x];
  for (int offset = 32; offset > 0; offset >>= 1) v += __shfl_xor(v, offset);
  // REPORT-DAG: wave64-hazards.cpp:10:21: warning: __shfl_xor by 32 lanes: the first step of a 64-lane reduction; on a 32-lane warp it reads outside the warp [wave64-assumption]
  const unsigned long long all = __ballot(1);
  if (all == 0xffffffffffffffffull) out[0] = v;
  // REPORT-DAG: wave64-hazards.cpp:13:14: warning: a 64-lane full mask: a CUDA warp's full mask is 0xffffffff [wave64-assumption]
  if ((threadIdx.x & 63) == 0) out[1 + threadIdx.x / 64] = v;
  // REPORT-DAG: wave64-hazards.cpp:15:22: warning: '& 63' on a thread or lane index
  // REPORT-DAG: wave64-hazards.cpp:15:54: warning: '/ 64' on a thread or lane index
  if (warpSize == 64) out[9] = 1.0f;
  // REPORT-DAG: wave64-hazards.cpp:18:19: warning: warpSize compared with 64
  // A 32-lane reduction is not reported.
  for (int offset = warpSize / 2; offset > 0; offset >>= 1) v += __shfl_down(v, offset);
}

void launch_both(float* out) {
  hipExtLaunchMultiKernelMultiDevice(nullptr, 0, 0);
  // CHECK: hipExtLaunchMultiKernelMultiDevice(nullptr, 0, 0);
  // REPORT-DAG: wave64-hazards.cpp:25:3: warning: 'hipExtLaunchMultiKernelMultiDevice' looks like a HIP API name but has no CUDA counterpart in the mapping tables; left unchanged [unknown-api]
}
// REPORT: 0 errors, 6 warnings, 3 notes
