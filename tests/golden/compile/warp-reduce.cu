// __reduce_{add,min,max,and,or,xor}_sync (sm_80): HIP has none. The mask is dropped as for
// the other *_sync calls and gpuport's shim (GPUPORT_REDUCE) combines the active lanes' values
// with __ballot and __shfl on AMD, and calls CUDA's own over the active lanes on NVIDIA: the
// translation compiles for gfx1100 and for sm_90, signed and unsigned overloads alike. Its
// __shfl calls come after the GPUPORT_WAVE64_SHFL shim, which makes them reach the whole wave64.
// REQUIRES: hip-compilers
// RUN: rm -rf %t && %gpuport translate --hip-version 5.2 --check -o %t %s > %t.log 2>&1
// The default target, HIP 6.4, for gfx1100 (HIP 6.4 has no NVIDIA platform headers here):
// RUN: rm -rf %t.64 && %gpuport translate --check --check-targets amd -o %t.64 %s 2>&1 | FileCheck --check-prefix=HIP64 %s
// HIP64: check gfx1100: compiles
// RUN: FileCheck --check-prefix=REPORT %s < %t.log
// RUN: grep -v -e CHECK -e RUN -e REPORT %t/warp-reduce.cu | FileCheck %s
#include <cuda_runtime.h>
// CHECK: #include <hip/hip_runtime.h>
// CHECK-NEXT: #if defined(__HIP_DEVICE_COMPILE__) && (defined(__GFX10__) || defined(__GFX11__)) && __AMDGCN_WAVEFRONT_SIZE == 64 && !defined(GPUPORT_WAVE64_SHFL)
// CHECK: #if !defined(GPUPORT_REDUCE)
// CHECK: #if defined(__HIP_PLATFORM_AMD__)
// CHECK: __device__ static inline int gpuport_reduce_min(int v)
// CHECK: #else
// CHECK: return __reduce_xor_sync(__activemask(), v);

__global__ void reduce_all(const unsigned* in, const int* signed_in, unsigned* out, int* signed_out) {
  const unsigned v = in[threadIdx.x];
  const int s = signed_in[threadIdx.x];
  const unsigned full = 0xffffffffu;
  unsigned sum = __reduce_add_sync(full, v);
  // CHECK: unsigned sum = gpuport_reduce_add(v);
  int smallest = __reduce_min_sync(0xffffffff, s);
  // CHECK: int smallest = gpuport_reduce_min(s);
  int largest = __reduce_max_sync(0xffffffff, s);
  unsigned bits = __reduce_and_sync(full, v) ^ __reduce_or_sync(full, v) ^ __reduce_xor_sync(full, v);
  // CHECK: unsigned bits = gpuport_reduce_and(v) ^ gpuport_reduce_or(v) ^ gpuport_reduce_xor(v);
  if (threadIdx.x == 0) {
    out[0] = sum;
    out[1] = bits;
    signed_out[0] = smallest;
    signed_out[1] = largest;
  }
}

int main() {
  reduce_all<<<1, 32>>>(nullptr, nullptr, nullptr, nullptr);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
// REPORT: check gfx1100: compiles
// REPORT: check nvidia: compiles
// REPORT: 0 errors
