// The NVIDIA-platform vote mapping is added only to files that vote.
// RUN: %gpuport translate %s 2>/dev/null | grep -v -e CHECK -e RUN | FileCheck %s
#include <cuda_runtime.h>
// CHECK: #include <hip/hip_runtime.h>
// CHECK-NOT: GPUPORT_NVIDIA_WARP_VOTES
__global__ void shuffles(float* x) {
  float v = x[threadIdx.x];
  v += __shfl_down_sync(0xffffffff, v, 1);
  x[threadIdx.x] = v;
}
