// Launch configuration from the occupancy API: cudaOccupancyMaxPotentialBlockSize
// for a plain kernel, the VariableSMem form for a kernel whose dynamic shared
// memory grows with the block size, and cudaOccupancyMaxActiveBlocksPerMultiprocessor
// to size a persistent grid. Both kernels' results are checked.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "../include/heldout.cuh"

__global__ void __launch_bounds__(1024) logistic(const float* __restrict__ x, float* __restrict__ y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = 1.0f / (1.0f + expf(-x[i]));
}

// Sum of squares per block, one float of dynamic shared memory per thread.
__global__ void sumsq_blocks(const float* __restrict__ x, int n, float* __restrict__ partial) {
  extern __shared__ float s[];
  float acc = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) acc += x[i] * x[i];
  s[threadIdx.x] = acc;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
}

struct SmemPerBlock {
  __host__ size_t operator()(int block_size) const { return size_t(block_size) * sizeof(float); }
};

int main() {
  int dev = 0, sms = 0, max_threads_sm = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&max_threads_sm, cudaDevAttrMaxThreadsPerMultiProcessor, dev));

  int min_grid = 0, block = 0;
  CUDA_CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, logistic, 0, 0));
  int active = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&active, logistic, block, 0));
  const double occupancy = double(active * block) / max_threads_sm;

  int min_grid2 = 0, block2 = 0;
  CUDA_CHECK(cudaOccupancyMaxPotentialBlockSizeVariableSMem(&min_grid2, &block2, sumsq_blocks,
                                                            SmemPerBlock(), 1024));
  // The reduction needs a power-of-two block.
  int pow2 = 32;
  while (pow2 * 2 <= block2) pow2 *= 2;
  block2 = pow2;
  size_t avail_smem = 0;
  CUDA_CHECK(cudaOccupancyAvailableDynamicSMemPerBlock(&avail_smem, sumsq_blocks, 2, block2));
  int active2 = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&active2, sumsq_blocks, block2,
                                                           block2 * sizeof(float)));
  const int grid2 = active2 * sms;

  const bool cfg_ok = block > 0 && block <= 1024 && active > 0 && occupancy > 0.0 && occupancy <= 1.0 &&
                      min_grid >= sms && grid2 > 0 && avail_smem >= block2 * sizeof(float);
  if (!cfg_ok)
    std::fprintf(stderr, "block=%d active=%d occ=%.2f grid2=%d avail=%zu\n", block, active, occupancy,
                 grid2, avail_smem);

  const int n = 1 << 20;
  std::vector<float> x(n);
  heldout::Lcg rng(1001);
  for (auto& v : x) v = rng.uniform(-8.0f, 8.0f);
  float *d_x, *d_y, *d_part;
  CUDA_CHECK(cudaMalloc(&d_x, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_y, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_part, std::max(grid2, 1) * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  heldout::GpuTimer timer;
  timer.start();
  const int grid = std::min((n + block - 1) / block, min_grid);
  logistic<<<grid, block>>>(d_x, d_y, n);
  CUDA_CHECK_LAUNCH();
  sumsq_blocks<<<grid2, block2, block2 * sizeof(float)>>>(d_x, n, d_part);
  CUDA_CHECK_LAUNCH();
  timer.stop();

  std::vector<float> y(n), part(grid2);
  CUDA_CHECK(cudaMemcpy(y.data(), d_y, n * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(part.data(), d_part, grid2 * sizeof(float), cudaMemcpyDeviceToHost));
  heldout::ErrTracker err;
  for (int i = 0; i < n; ++i) err.add(y[i], 1.0 / (1.0 + std::exp(-double(x[i]))), 1e-5, 1e-3);
  double ss = 0.0, got = 0.0;
  for (float v : x) ss += double(v) * v;
  for (float p : part) got += p;
  err.add(got, ss, 1e-4);

  CUDA_CHECK(cudaFree(d_x));
  CUDA_CHECK(cudaFree(d_y));
  CUDA_CHECK(cudaFree(d_part));
  return heldout::report("occupancy_api", err.ok() && cfg_ok, err.max_rel, timer.ms());
}
