// --to cuda: HIP's mask-less warp functions become CUDA's *_sync ones with the full-warp mask (a
// note says so: divergent callers need their own), atomicAdd stays atomicAdd although
// atomicAdd_block also maps to it, and the platform macros read as nvcc sees them.
// RUN: %gpuport translate --to cuda %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <hip/hip_runtime.h>

__global__ void vote(const int* x, int* out) {
  int v = x[threadIdx.x];
  int s = v + __shfl_down(v, 8);
  // CHECK: int s = v + __shfl_down_sync(0xffffffffu, v, 8);
  unsigned long long m = __ballot(v > 0);
  // CHECK: unsigned long long m = __ballot_sync(0xffffffffu, v > 0);
  if (__all(v > 0)) atomicAdd(out, s + static_cast<int>(__popcll(m)));
  // CHECK: if (__all_sync(0xffffffffu, v > 0)) atomicAdd(out, s + static_cast<int>(__popcll(m)));
#if defined(__HIP_PLATFORM_NVIDIA__) || defined(__HIP_PLATFORM_NVCC__)
  // CHECK: #if defined(__CUDACC__) || defined(__CUDACC__)
  out[1] = 32;
#elif defined(__HIP_PLATFORM_AMD__)
  // CHECK: #elif defined(__HIP_PLATFORM_AMD__)
  out[1] = 64;
#endif
#ifdef __HIP_DEVICE_COMPILE__
  // CHECK: #ifdef __CUDA_ARCH__
  out[2] = 1;
#endif
}
// REPORT-DAG: warp-masks.cpp:10:15: note: lane mask 0xffffffffu added: __shfl_down_sync names the lanes taking part, HIP's __shfl_down took every active lane [warp-mask-added]
// REPORT-DAG: warp-masks.cpp:12:26: note: lane mask 0xffffffffu added
// REPORT-DAG: warp-masks.cpp:14:7: note: lane mask 0xffffffffu added
// REPORT: 0 errors, 0 warnings, 3 notes
