// Votes (__ballot_sync, __any_sync, __all_sync) lose their mask for HIP 5.2, whose NVIDIA
// platform lacks the mask-free forms that CUDA removed for sm_70+: gpuport adds a guarded
// mapping after the runtime include, so the code compiles for gfx1100 and for sm_90.
// REQUIRES: hip-compilers
// RUN: rm -rf %t && %gpuport translate --hip-version 5.2 --check -o %t %s > %t.log 2>&1
// The default target, HIP 6.4, for gfx1100 (HIP 6.4 has no NVIDIA platform headers here):
// RUN: rm -rf %t.64 && %gpuport translate --check --check-targets amd -o %t.64 %s 2>&1 | FileCheck --check-prefix=HIP64 %s
// HIP64: check gfx1100: compiles
// RUN: FileCheck --check-prefix=REPORT %s < %t.log
// RUN: grep -v -e CHECK -e RUN -e REPORT %t/ballot-votes.cu | FileCheck %s
#include <cuda_runtime.h>
// CHECK: #include <hip/hip_runtime.h>
// CHECK-NEXT: #if defined(__HIP_PLATFORM_NVIDIA__) && !defined(GPUPORT_NVIDIA_WARP_VOTES)
// CHECK: #define __ballot(predicate) __ballot_sync(0xffffffffu, (predicate))
// CHECK: #endif

__global__ void votes(const int* in, unsigned long long* ballots, int* flags) {
  const int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  unsigned long long b = __ballot_sync(0xffffffff, v > 0);
  // CHECK: unsigned long long b = __ballot(v > 0);
  int any = __any_sync(0xffffffff, v < 0);
  int all = __all_sync(0xffffffff, v != 0);
  // CHECK: int any = __any(v < 0);
  // CHECK: int all = __all(v != 0);
  if (threadIdx.x == 0) {
    ballots[blockIdx.x] = b;
    flags[blockIdx.x] = any + 2 * all;
  }
}
// REPORT: check gfx1100: compiles
// REPORT: check nvidia: compiles
