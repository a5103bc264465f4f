// 32-lane idioms found by what the values are, followed through each function's assignments,
// not by their names: r is a lane index because it is threadIdx.x & 31, q a warp index because it
// is threadIdx.x / 32, and names assigned from them (or from a global index g) inherit that. The
// lane-strided loop, the first-warp test, warps per block and the warp-major index are reported
// too. A value read through a thread index (in[g]) is data, and a function's variables are its
// own (the i of bits() is no thread index although kernel's i is).
// RUN: %gpuport translate %s 2>%t.err >/dev/null
// RUN: FileCheck %s < %t.err
// RUN: %gpuport translate --fix-warp-size %s 2>/dev/null | FileCheck --check-prefix=FIX %s
__device__ unsigned bits(unsigned v) {
  for (int i = 0; i < 32; ++i) v ^= v >> 5;
  return v;
}
__global__ void kernel(const float* in, float* data, int n) {
  int r = threadIdx.x & 31;
  // CHECK: data-flow-idioms.cu:[[@LINE-1]]:25: warning: '& 31' computes a lane index for 32-lane warps [warp-lane-arithmetic]
  int q = threadIdx.x / 32;
  // CHECK: :[[@LINE-1]]:25: warning: '/ 32' divides by a 32-lane warp size [warp-size-literal]
  int per_block = blockDim.x / 32;
  // CHECK: :[[@LINE-1]]:32: warning: '/ 32' counts the warps of a block for 32-lane warps [warp-size-literal]
  // FIX: int per_block = blockDim.x / warpSize;
  int rounded = (blockDim.x + 31) >> 5;
  // CHECK: :[[@LINE-1]]:38: warning: '>> 5' counts the warps of a block for 32-lane warps [warp-size-literal]
  for (int c = r; c < n; c += 32) data[c] += 1.0f;
  // CHECK: :[[@LINE-1]]:31: warning: 'c += 32' steps a lane-strided loop by one 32-lane warp [warp-size-literal]
  if (threadIdx.x < 32) data[0] = 0.0f;
  // CHECK: :[[@LINE-1]]:21: warning: '< 32' takes 32 threads for one warp
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int s = g % 32;
  // CHECK: :[[@LINE-1]]:15: warning: '% 32' computes a lane index for 32-lane warps [warp-lane-arithmetic]
  int w = g / 32;
  // CHECK: :[[@LINE-1]]:15: warning: '/ 32' divides by a 32-lane warp size [warp-size-literal]
  int idx = q * 32 + r;
  // CHECK: :[[@LINE-1]]:17: warning: '* 32' makes a thread index of a warp index for 32-lane warps [warp-size-literal]
  if ((g & 31) == r) data[idx] = 1.0f;
  // CHECK: :[[@LINE-1]]:12: warning: '& 31' computes a lane index for 32-lane warps [warp-lane-arithmetic]
  int k = r;
  if (k >= 32) data[1] = 2.0f;
  // CHECK: :[[@LINE-1]]:12: warning: '>= 32' takes 32 threads for one warp
  float x = in[g];
  int i = g;
  data[2] = per_block + rounded + s + w + x / 32 + bits(n) + (n % 32) + (n / 32) + i;
  // CHECK-NOT: warning
  // CHECK: 0 errors, 11 warnings
}
