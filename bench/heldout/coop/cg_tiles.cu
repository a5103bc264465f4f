// Cooperative groups inside a block: thread_block, a static 32-wide
// tiled_partition reduced with cg::reduce, a dynamic 16-wide partition using
// tile shuffles, and coalesced_threads() for warp-aggregated atomics in a
// divergent branch.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "../include/heldout.cuh"

namespace cg = cooperative_groups;

// Per-block sum (static tiles + cg::reduce) and per-16-lane-group max (dynamic tiles).
__global__ void tile_stats(const float* __restrict__ in, int n, float* __restrict__ block_sums,
                           float* __restrict__ group_max) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  __shared__ float warp_sums[32];

  const int i = blockIdx.x * block.size() + block.thread_rank();
  const float v = i < n ? in[i] : 0.0f;
  const float ws = cg::reduce(warp, v, cg::plus<float>());
  if (warp.thread_rank() == 0) warp_sums[warp.meta_group_rank()] = ws;
  block.sync();
  if (warp.meta_group_rank() == 0) {
    float t = warp.thread_rank() < warp.meta_group_size() ? warp_sums[warp.thread_rank()] : 0.0f;
    t = cg::reduce(warp, t, cg::plus<float>());
    if (warp.thread_rank() == 0) block_sums[blockIdx.x] = t;
  }

  cg::thread_group sixteen = cg::tiled_partition(block, 16);
  cg::thread_block_tile<16> tile16 = cg::tiled_partition<16>(block);
  float m = v;
  for (int off = tile16.size() / 2; off > 0; off >>= 1) m = fmaxf(m, tile16.shfl_xor(m, off));
  sixteen.sync();
  if (sixteen.thread_rank() == 0 && i < n) group_max[i / 16] = m;
}

// Count positives; the lanes that take the branch elect one atomic per warp.
__global__ void count_positive(const float* __restrict__ in, int n, unsigned* __restrict__ count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0.0f) {
    cg::coalesced_group active = cg::coalesced_threads();
    if (active.thread_rank() == 0) atomicAdd(count, active.size());
  }
}

int main() {
  const int n = 1 << 20, block = 256;
  const int blocks = (n + block - 1) / block;
  std::vector<float> in(n);
  heldout::Lcg rng(6);
  for (auto& v : in) v = rng.uniform(-1.0f, 1.0f);

  float *d_in, *d_sums, *d_max;
  unsigned* d_count;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_sums, blocks * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_max, (n / 16) * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_count, sizeof(unsigned)));
  CUDA_CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_count, 0, sizeof(unsigned)));

  heldout::GpuTimer timer;
  timer.start();
  tile_stats<<<blocks, block>>>(d_in, n, d_sums, d_max);
  CUDA_CHECK_LAUNCH();
  count_positive<<<blocks, block>>>(d_in, n, d_count);
  CUDA_CHECK_LAUNCH();
  timer.stop();

  std::vector<float> sums(blocks), gmax(n / 16);
  unsigned count = 0;
  CUDA_CHECK(cudaMemcpy(sums.data(), d_sums, blocks * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(gmax.data(), d_max, gmax.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&count, d_count, sizeof(unsigned), cudaMemcpyDeviceToHost));

  heldout::ErrTracker err;
  unsigned want_count = 0;
  for (int b = 0; b < blocks; ++b) {
    double s = 0.0;
    for (int t = 0; t < block; ++t) s += in[size_t(b) * block + t];
    err.add(sums[b], s, 1e-4, 1.0);
  }
  for (size_t g = 0; g < gmax.size(); ++g) {
    float m = in[g * 16];
    for (int t = 1; t < 16; ++t) m = std::fmax(m, in[g * 16 + t]);
    err.add(gmax[g], m, 0.0, 1.0);
  }
  for (float v : in) want_count += v > 0.0f;
  const bool count_ok = count == want_count;

  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_sums));
  CUDA_CHECK(cudaFree(d_max));
  CUDA_CHECK(cudaFree(d_count));
  return heldout::report("cg_tiles", err.ok() && count_ok, err.max_rel, timer.ms());
}
