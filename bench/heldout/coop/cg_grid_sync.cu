// A persistent cooperative kernel that normalizes a vector to unit L2 norm in
// one launch: grid-stride partial sums, grid.sync(), a final reduction by
// block 0, grid.sync(), then the scaling pass. The grid is sized from the
// occupancy API and launched with cudaLaunchCooperativeKernel.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "../include/heldout.cuh"

namespace cg = cooperative_groups;

constexpr int kThreads = 256;

__global__ void normalize_l2(float* data, int n, float* partials, float* norm_out) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  __shared__ float s[kThreads];

  float acc = 0.0f;
  for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size())
    acc += data[i] * data[i];
  s[block.thread_rank()] = acc;
  block.sync();
  for (int k = kThreads / 2; k > 0; k >>= 1) {
    if (block.thread_rank() < k) s[block.thread_rank()] += s[block.thread_rank() + k];
    block.sync();
  }
  if (block.thread_rank() == 0) partials[blockIdx.x] = s[0];

  grid.sync();
  if (blockIdx.x == 0) {
    float t = 0.0f;
    for (unsigned b = block.thread_rank(); b < gridDim.x; b += kThreads) t += partials[b];
    s[block.thread_rank()] = t;
    block.sync();
    for (int k = kThreads / 2; k > 0; k >>= 1) {
      if (block.thread_rank() < k) s[block.thread_rank()] += s[block.thread_rank() + k];
      block.sync();
    }
    if (block.thread_rank() == 0) *norm_out = sqrtf(s[0]);
  }
  grid.sync();

  const float inv = 1.0f / *norm_out;
  for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size())
    data[i] *= inv;
}

int main() {
  int dev = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  int coop = 0, sms = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  if (!coop) {
    std::fprintf(stderr, "cooperative launch not supported\n");
    return heldout::report("cg_grid_sync", false, 0.0, 0.0);
  }
  int per_sm = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, normalize_l2, kThreads, 0));
  const int grid_blocks = per_sm * sms;

  const int n = 1 << 20;
  std::vector<float> h(n);
  heldout::Lcg rng(12);
  for (auto& v : h) v = rng.uniform(-1.0f, 1.0f);
  float *d_data, *d_partials, *d_norm;
  CUDA_CHECK(cudaMalloc(&d_data, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_partials, grid_blocks * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_norm, sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_data, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  int n_arg = n;
  void* args[] = {&d_data, &n_arg, &d_partials, &d_norm};
  heldout::GpuTimer timer;
  timer.start();
  CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(normalize_l2), dim3(grid_blocks),
                                         dim3(kThreads), args, 0, 0));
  timer.stop();
  std::vector<float> out(n);
  float norm = 0.0f;
  CUDA_CHECK(cudaMemcpy(out.data(), d_data, n * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&norm, d_norm, sizeof(float), cudaMemcpyDeviceToHost));

  double ss = 0.0;
  for (float v : h) ss += double(v) * v;
  const double ref_norm = std::sqrt(ss);
  heldout::ErrTracker err;
  err.add(norm, ref_norm, 1e-4);
  for (int i = 0; i < n; ++i) err.add(out[i], h[i] / ref_norm, 1e-4, 1e-3);

  CUDA_CHECK(cudaFree(d_data));
  CUDA_CHECK(cudaFree(d_partials));
  CUDA_CHECK(cudaFree(d_norm));
  return heldout::report("cg_grid_sync", err.ok(), err.max_rel, timer.ms());
}
