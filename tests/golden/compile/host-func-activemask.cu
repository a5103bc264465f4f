// cudaLaunchHostFunc with a CUDART_CB callback, and __activemask: HIP 5.2 lacks __activemask
// on AMD (it arrived with 6.2) and hipLaunchHostFunc on NVIDIA (5.4); on AMD it declares
// hipLaunchHostFunc, but Debian 12's libamdhip64 does not export it, so the program would not
// link (a stream callback stands in). gpuport adds a shim for each, guarded by platform and
// HIP_VERSION, and drops CUDART_CB (HIP's callback types take no
// calling convention): the translation compiles for gfx1100 and for sm_90.
// REQUIRES: hip-compilers
// RUN: rm -rf %t && %gpuport translate --hip-version 5.2 --check -o %t %s > %t.log 2>&1
// The default target, HIP 6.4, for gfx1100 (HIP 6.4 has no NVIDIA platform headers here):
// RUN: rm -rf %t.64 && %gpuport translate --check --check-targets amd -o %t.64 %s 2>&1 | FileCheck --check-prefix=HIP64 %s
// HIP64: check gfx1100: compiles
// RUN: FileCheck --check-prefix=REPORT %s < %t.log
// RUN: grep -v -e CHECK -e RUN -e REPORT %t/host-func-activemask.cu | FileCheck %s
#include <cstdio>
#include <cuda_runtime.h>
// CHECK: #include <hip/hip_runtime.h>
// CHECK-NEXT: #if defined(__HIP_PLATFORM_AMD__) && (HIP_VERSION < 60200000 || !defined(HIP_ENABLE_WARP_SYNC_BUILTINS)) && \
// CHECK-NEXT: !defined(GPUPORT_AMD_ACTIVEMASK)
// CHECK: #define __activemask gpuport_activemask
// CHECK: #if defined(__HIP_PLATFORM_NVIDIA__) && HIP_VERSION < 50400000 && !defined(GPUPORT_NVIDIA_HOST_FUNC)
// CHECK: #define hipLaunchHostFunc gpuport_hipLaunchHostFunc
// CHECK: #if defined(__HIP_PLATFORM_AMD__) && HIP_VERSION < 50400000 && !defined(GPUPORT_AMD_HOST_FUNC)
// CHECK: hipStreamAddCallback(stream, gpuport_host_fn_call, f, 0);
// CHECK: #define hipLaunchHostFunc gpuport_hipLaunchHostFunc

void CUDART_CB mark_done(void* data) { *static_cast<int*>(data) = 1; }
// CHECK: void mark_done(void* data)

__global__ void active_lanes(unsigned long long* out) {
  unsigned long long mask = __activemask();
  // CHECK: unsigned long long mask = __activemask();
  if (threadIdx.x == 0) out[blockIdx.x] = mask;
}

int main() {
  unsigned long long* d = nullptr;
  cudaMalloc(&d, sizeof(unsigned long long));
  cudaStream_t s;
  cudaStreamCreate(&s);
  active_lanes<<<1, 64, 0, s>>>(d);
  int flag = 0;
  cudaLaunchHostFunc(s, mark_done, &flag);
  // CHECK: hipLaunchHostFunc(s, mark_done, &flag);
  cudaStreamSynchronize(s);
  std::printf("%d\n", flag);
  return 0;
}
// REPORT: check gfx1100: compiles
// REPORT: check nvidia: compiles
// REPORT: 0 errors
