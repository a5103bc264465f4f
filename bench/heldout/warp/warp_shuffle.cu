// Warp shuffles: a block-wide inclusive scan built from __shfl_up_sync warp
// scans, per-block totals with __shfl_down_sync, a __shfl_sync broadcast of
// each warp's first value, and a __shfl_xor_sync butterfly max.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "../include/heldout.cuh"

constexpr unsigned kFull = 0xffffffffu;
constexpr int kBlock = 1024;

__device__ __forceinline__ int warp_inclusive_scan(int v) {
  const int lane = threadIdx.x & 31;
#pragma unroll
  for (int off = 1; off < 32; off <<= 1) {
    int up = __shfl_up_sync(kFull, v, off);
    if (lane >= off) v += up;
  }
  return v;
}

__device__ __forceinline__ int warp_sum(int v) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(kFull, v, off);
  return v;  // valid in lane 0
}

__global__ void block_scan(const int* __restrict__ in, int* __restrict__ scan, int* __restrict__ totals,
                           int* __restrict__ first_of_warp, int* __restrict__ warp_max, int n) {
  __shared__ int warp_tot[32];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int v = i < n ? in[i] : 0;

  int inc = warp_inclusive_scan(v);
  if (lane == 31) warp_tot[warp] = inc;
  __syncthreads();
  if (warp == 0) {
    int t = lane < blockDim.x / 32 ? warp_tot[lane] : 0;
    int s = warp_inclusive_scan(t);
    warp_tot[lane] = s - t;  // exclusive offsets of each warp
  }
  __syncthreads();
  inc += warp_tot[warp];
  if (i < n) scan[i] = inc;

  int tot = warp_sum(v);
  int first = __shfl_sync(kFull, v, 0);
  int m = v;
#pragma unroll
  for (int mask = 16; mask > 0; mask >>= 1) m = max(m, __shfl_xor_sync(kFull, m, mask));
  const int gw = i >> 5;
  if (lane == 0 && i < n) {
    first_of_warp[gw] = first;
    atomicAdd(&totals[blockIdx.x], tot);
  }
  if (lane == 7 && i < n) warp_max[gw] = m;  // every lane has the max; pick one
}

int main() {
  const int n = 1 << 20;
  const int blocks = n / kBlock, warps = n / 32;
  std::vector<int> in(n);
  heldout::Lcg rng(4);
  for (auto& v : in) v = int(rng.next() % 201) - 100;

  int *d_in, *d_scan, *d_tot, *d_first, *d_max;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_scan, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_tot, blocks * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_first, warps * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_max, warps * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_tot, 0, blocks * sizeof(int)));

  heldout::GpuTimer timer;
  timer.start();
  block_scan<<<blocks, kBlock>>>(d_in, d_scan, d_tot, d_first, d_max, n);
  CUDA_CHECK_LAUNCH();
  timer.stop();
  std::vector<int> scan(n), tot(blocks), first(warps), wmax(warps);
  CUDA_CHECK(cudaMemcpy(scan.data(), d_scan, n * sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(tot.data(), d_tot, blocks * sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(first.data(), d_first, warps * sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(wmax.data(), d_max, warps * sizeof(int), cudaMemcpyDeviceToHost));

  long wrong = 0;
  for (int b = 0; b < blocks; ++b) {
    int run = 0;
    for (int t = 0; t < kBlock; ++t) {
      run += in[size_t(b) * kBlock + t];
      wrong += scan[size_t(b) * kBlock + t] != run;
    }
    wrong += tot[b] != run;
  }
  for (int w = 0; w < warps; ++w) {
    wrong += first[w] != in[size_t(w) * 32];
    wrong += wmax[w] != *std::max_element(in.begin() + size_t(w) * 32, in.begin() + size_t(w + 1) * 32);
  }

  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_scan));
  CUDA_CHECK(cudaFree(d_tot));
  CUDA_CHECK(cudaFree(d_first));
  CUDA_CHECK(cudaFree(d_max));
  return heldout::report("warp_shuffle", wrong == 0, double(wrong) / n, timer.ms());
}
