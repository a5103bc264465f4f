// __match_any_sync and __match_all_sync: HIP has no mask-free form of either (HIP 6.2 has
// the *_sync forms only behind HIP_ENABLE_WARP_SYNC_BUILTINS, with 64-bit masks; HIP 5.2 none).
// The mask is dropped as for the other *_sync calls and gpuport's shim groups the active
// lanes by value with __ballot and __shfl on AMD (a 64-bit lane mask, as on wave64), and calls
// CUDA's own function over the active lanes on NVIDIA: the translation compiles for both. Its
// __shfl calls come after the GPUPORT_WAVE64_SHFL shim, which makes them reach the whole wave64.
// REQUIRES: hip-compilers
// RUN: rm -rf %t && %gpuport translate --hip-version 5.2 --check -o %t %s > %t.log 2>&1
// The default target, HIP 6.4, for gfx1100 (HIP 6.4 has no NVIDIA platform headers here):
// RUN: rm -rf %t.64 && %gpuport translate --check --check-targets amd -o %t.64 %s 2>&1 | FileCheck --check-prefix=HIP64 %s
// HIP64: check gfx1100: compiles
// RUN: FileCheck --check-prefix=REPORT %s < %t.log
// RUN: grep -v -e CHECK -e RUN -e REPORT %t/match-any-all.cu | FileCheck %s
#include <cstdio>
#include <cuda_runtime.h>
// CHECK: #include <hip/hip_runtime.h>
// CHECK-NEXT: #if defined(__HIP_DEVICE_COMPILE__) && (defined(__GFX10__) || defined(__GFX11__)) && __AMDGCN_WAVEFRONT_SIZE == 64 && !defined(GPUPORT_WAVE64_SHFL)
// CHECK: #if !defined(GPUPORT_MATCH)
// CHECK: #if defined(__HIP_PLATFORM_AMD__)
// CHECK: __device__ static inline unsigned long long gpuport_match_any(T value) {
// CHECK: __device__ static inline unsigned long long gpuport_match_all(T value, int* pred) {
// CHECK: #else
// CHECK: return __match_any_sync(__activemask(), value);

__global__ void peers(const int* keys, unsigned long long* groups, int* uniform) {
  const int k = keys[threadIdx.x];
  unsigned long long same = __match_any_sync(0xffffffffu, k);
  // CHECK: unsigned long long same = gpuport_match_any(k);
  int all = 0;
  unsigned long long everyone = __match_all_sync(__activemask(), k, &all);
  // CHECK: unsigned long long everyone = gpuport_match_all(k, &all);
  groups[threadIdx.x] = same;
  if (threadIdx.x == 0) *uniform = all && everyone != 0;
}

int main() {
  int* keys = nullptr;
  unsigned long long* groups = nullptr;
  int* uniform = nullptr;
  cudaMalloc(&keys, 32 * sizeof(int));
  cudaMalloc(&groups, 32 * sizeof(unsigned long long));
  cudaMalloc(&uniform, sizeof(int));
  peers<<<1, 32>>>(keys, groups, uniform);
  cudaDeviceSynchronize();
  std::printf("done\n");
  return 0;
}
// REPORT: note: full lane mask '0xffffffffu' dropped
// REPORT: note: full lane mask '__activemask()' dropped
// REPORT: check gfx1100: compiles
// REPORT: check nvidia: compiles
// REPORT: 0 errors
