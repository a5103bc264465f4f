// The waves of a workgroup take turns in short time slices, as the hardware runs them side by
// side. llama.cpp b2000's soft_max (this kernel's pattern) reads a shared buffer after a barrier
// and, later and without a second barrier, overwrites it from wave 0: on a GPU every wave has read
// it by then. Run alone to its next barrier, wave 0 overwrote it first and wave 1 normalized by
// the wrong maximum (NMSE 0.19 in test-backend-ops; llama.cpp added the barrier two months on).
// REQUIRES: hip-compilers, hip64
// RUN: rm -rf %t && mkdir %t && cd %t && %gpuport nvcc %s -o softmax
// RUN: %gpuport run %t/softmax | FileCheck %s
// CHECK: softmax of 49 columns in 2 waves: PASS
#include <cmath>
#include <cstdio>

__device__ float warp_max(float x) {
  for (int m = 16; m > 0; m >>= 1) x = fmaxf(x, __shfl_xor_sync(0xffffffff, x, m, 32));
  return x;
}
__device__ float warp_sum(float x) {
  for (int m = 16; m > 0; m >>= 1) x += __shfl_xor_sync(0xffffffff, x, m, 32);
  return x;
}

__global__ void softmax(const float* x, float* dst, int ncols) {
  __shared__ float buf[32], vals[64];
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  float mx = -INFINITY;
  if (tid < ncols) mx = vals[tid] = x[tid];
  mx = warp_max(mx);
  if (warp == 0) buf[lane] = -INFINITY;
  __syncthreads();
  if (lane == 0) buf[warp] = mx;
  __syncthreads();
  mx = warp_max(buf[lane]);  // read here...
  float t = 0;
  if (tid < ncols) t = vals[tid] = expf(vals[tid] - mx);
  t = warp_sum(t);
  if (warp == 0) buf[lane] = 0;  // ...and overwritten here, with no barrier between
  __syncthreads();
  if (lane == 0) buf[warp] = t;
  __syncthreads();
  t = warp_sum(buf[lane]);
  if (tid < ncols) dst[tid] = vals[tid] / t;
}

int main() {
  const int n = 49;
  float h[n], r[n], *x, *d;
  for (int i = 0; i < n; ++i) h[i] = sinf(float(i));
  cudaMalloc(&x, sizeof h);
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice);
  softmax<<<1, 64>>>(x, d, n);
  cudaMemcpy(r, d, sizeof r, cudaMemcpyDeviceToHost);
  float mx = h[0], sum = 0, err = 0;
  for (int i = 0; i < n; ++i) mx = fmaxf(mx, h[i]);
  for (int i = 0; i < n; ++i) sum += expf(h[i] - mx);
  for (int i = 0; i < n; ++i) err = fmaxf(err, fabsf(r[i] - expf(h[i] - mx) / sum));
  std::printf("softmax of %d columns in 2 waves: %s (largest error %g)\n", n, err < 1e-6f ? "PASS" : "FAIL", err);
  return err < 1e-6f ? 0 : 1;
}
