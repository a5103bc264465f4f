// atomicMin and atomicMax on long long: HIP 5.2 declares them for int, unsigned, unsigned long
// long, float and double only (5.7 and 6.x have long long too), so gpuport adds a shim for HIP
// before 6 in files that use the type: a template that takes only long long, which loses to a
// HIP that declares the function itself. Translated for HIP 5.2, the program builds and its
// 64-bit extremes are right on the emulator; for HIP 5.7 (which has them) it still compiles.
// REQUIRES: hip-gfx1100
// RUN: rm -rf %t && %gpuport translate --hip-version 5.2 -o %t %s > %t.log 2>&1
// RUN: grep -v -e CHECK -e RUN -e EMU -e HIP57 %t/atomic-minmax-longlong.cu | FileCheck %s
// CHECK: #if defined(__HIP_PLATFORM_AMD__) && HIP_VERSION < 60000000 && !defined(GPUPORT_AMD_ATOMIC_MINMAX_LL)
// CHECK: __device__ static inline T atomicMin(T* address, T val) {
// RUN: %hipcc -O2 %t/atomic-minmax-longlong.cu -o %t/a.out %hiplink
// RUN: %gpuport run %t/a.out | FileCheck --check-prefix=EMU %s
// EMU: minmax: -2540000000000 2540000000000 (expected -2540000000000 2540000000000): PASS
// RUN: rm -rf %t.57 && %gpuport translate --hip-version 5.7 --check --check-targets amd -o %t.57 %s 2>&1 | FileCheck --check-prefix=HIP57 %s
// HIP57: check gfx1100: compiles
#include <cstdio>
#include <cuda_runtime.h>
__global__ void extremes(const long long* v, int n, long long* lo, long long* hi, int* ilo) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicMin(lo, v[i]);
    atomicMax(hi, v[i]);
    atomicMin(ilo, static_cast<int>(v[i] % 1000));
  }
}
int main() {
  const int n = 256;
  long long h[n];
  for (int i = 0; i < n; ++i) h[i] = (i * 7919LL % 509 - 254) * 10000000000LL;  // spans beyond 32 bits
  long long* d;
  long long* r;
  int* ri;
  cudaMalloc(&d, sizeof(h));
  cudaMalloc(&r, 2 * sizeof(long long));
  cudaMalloc(&ri, sizeof(int));
  long long init[2] = {0x7fffffffffffffffLL, -0x7fffffffffffffffLL};
  int iinit = 1000;
  cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
  cudaMemcpy(r, init, sizeof(init), cudaMemcpyHostToDevice);
  cudaMemcpy(ri, &iinit, sizeof(int), cudaMemcpyHostToDevice);
  extremes<<<4, 64>>>(d, n, r, r + 1, ri);
  long long out[2];
  cudaMemcpy(out, r, sizeof(out), cudaMemcpyDeviceToHost);
  long long lo = h[0], hi = h[0];
  for (int i = 1; i < n; ++i) lo = h[i] < lo ? h[i] : lo, hi = h[i] > hi ? h[i] : hi;
  const bool ok = out[0] == lo && out[1] == hi;
  std::printf("minmax: %lld %lld (expected %lld %lld): %s\n", out[0], out[1], lo, hi, ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
