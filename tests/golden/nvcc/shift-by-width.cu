// A shift by the operand's width or more is undefined in C++; nvcc compiles it to PTX's shr/shl,
// which clamp the amount to the width: 0, or the sign for a signed right shift. CUDA code relies
// on that (GPUJPEG's Huffman encoder shifts 0x80000000 by __clz(0) = 32 in lane 0 and needs 0;
// without it its JPEGs were corrupt). gpuport nvcc gives gfx1100's device code the same meaning,
// in 32 and 64 bits, optimised and not (-G: nvcc leaves device code unoptimised only then); AMD's
// own shifts would use the amount's low bits.
// REQUIRES: hip-compilers, hip64
// RUN: rm -rf %t && mkdir %t && cd %t && %gpuport nvcc -O3 %s -o shifts3 && %gpuport nvcc -G %s -o shifts0
// RUN: %gpuport run %t/shifts3 | FileCheck %s
// RUN: %gpuport run %t/shifts0 | FileCheck %s
// CHECK: by 5: 04000000 00000020 fc000000 0000000000000020
// CHECK-NEXT: by 32: 00000000 00000000 ffffffff 0000000100000000
// CHECK-NEXT: by 40: 00000000 00000000 ffffffff 0000010000000000
// CHECK-NEXT: by 64: 00000000 00000000 ffffffff 0000000000000000
// CHECK-NEXT: lane 0's pair count: clz 32, 0x80000000 >> 32 = 0: PASS
#include <cstdio>
#include <cuda_runtime.h>

__global__ void shifts(const int* by, unsigned* out32, unsigned long long* out64) {
  const int n = by[threadIdx.x];
  out32[threadIdx.x * 3] = 0x80000000u >> n;
  out32[threadIdx.x * 3 + 1] = 1u << n;
  out32[threadIdx.x * 3 + 2] = static_cast<unsigned>(static_cast<int>(0x80000000u) >> n);
  out64[threadIdx.x] = 1ull << n;
}

// GPUJPEG's form: the leading zeros of an empty mask, then a shift by them.
__global__ void pair_count(unsigned mask, unsigned* out) {
  const int zeros = __clz(mask & ((1u << threadIdx.x) - 1));
  out[0] = zeros;
  out[1] = 0x80000000u >> zeros;
}

int main() {
  const int by[4] = {5, 32, 40, 64};
  int* d_by;
  unsigned *d32, h32[12], *d_pair, pair[2];
  unsigned long long *d64, h64[4];
  cudaMalloc(&d_by, sizeof by);
  cudaMalloc(&d32, sizeof h32);
  cudaMalloc(&d64, sizeof h64);
  cudaMalloc(&d_pair, sizeof pair);
  cudaMemcpy(d_by, by, sizeof by, cudaMemcpyHostToDevice);
  shifts<<<1, 4>>>(d_by, d32, d64);
  pair_count<<<1, 1>>>(0xffffffffu, d_pair);
  cudaMemcpy(h32, d32, sizeof h32, cudaMemcpyDeviceToHost);
  cudaMemcpy(h64, d64, sizeof h64, cudaMemcpyDeviceToHost);
  cudaMemcpy(pair, d_pair, sizeof pair, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 4; ++i)
    std::printf("by %d: %08x %08x %08x %016llx\n", by[i], h32[3 * i], h32[3 * i + 1], h32[3 * i + 2], h64[i]);
  std::printf("lane 0's pair count: clz %u, 0x80000000 >> %u = %x: %s\n", pair[0], pair[0], pair[1],
              pair[0] == 32 && pair[1] == 0 ? "PASS" : "FAIL");
  return 0;
}
