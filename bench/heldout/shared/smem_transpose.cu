// Out-of-place matrix transpose through a padded static shared-memory tile
// (32x33 to avoid bank conflicts), for a non-square matrix whose sizes are not
// multiples of the tile. Sets the shared-memory carveout and cache preference.
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "../include/heldout.cuh"

constexpr int TILE_DIM = 32;
constexpr int BLOCK_ROWS = 8;

__global__ void transpose_tiled(const float* __restrict__ in, float* __restrict__ out, int rows,
                                int cols) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;  // column in `in`
  int y = blockIdx.y * TILE_DIM + threadIdx.y;  // row in `in`
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[size_t(y + j) * cols + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;  // column in `out` (= row in `in`)
  y = blockIdx.x * TILE_DIM + threadIdx.y;  // row in `out`
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < rows && y + j < cols) out[size_t(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

// Naive version for timing comparison and a second result to check.
__global__ void transpose_naive(const float* __restrict__ in, float* __restrict__ out, int rows,
                                int cols) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < cols && y < rows) out[size_t(x) * rows + y] = in[size_t(y) * cols + x];
}

int main() {
  const int rows = 1000, cols = 777;
  const size_t n = size_t(rows) * cols;
  std::vector<float> a(n);
  for (size_t i = 0; i < n; ++i) a[i] = float(i % 9973) * 0.5f - 1000.0f;

  float *d_in, *d_t, *d_n;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_t, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_n, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_in, a.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  CUDA_CHECK(cudaFuncSetAttribute(transpose_tiled, cudaFuncAttributePreferredSharedMemoryCarveout,
                                  cudaSharedmemCarveoutMaxShared));
  CUDA_CHECK(cudaFuncSetCacheConfig(transpose_naive, cudaFuncCachePreferL1));
  cudaFuncAttributes fa;
  CUDA_CHECK(cudaFuncGetAttributes(&fa, transpose_tiled));
  const bool smem_ok = fa.sharedSizeBytes == sizeof(float) * TILE_DIM * (TILE_DIM + 1);

  heldout::GpuTimer tiled_timer, naive_timer;
  dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
  tiled_timer.start();
  transpose_tiled<<<grid, dim3(TILE_DIM, BLOCK_ROWS)>>>(d_in, d_t, rows, cols);
  CUDA_CHECK_LAUNCH();
  tiled_timer.stop();
  naive_timer.start();
  transpose_naive<<<dim3((cols + 15) / 16, (rows + 15) / 16), dim3(16, 16)>>>(d_in, d_n, rows, cols);
  CUDA_CHECK_LAUNCH();
  naive_timer.stop();

  std::vector<float> t(n), nv(n);
  CUDA_CHECK(cudaMemcpy(t.data(), d_t, n * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(nv.data(), d_n, n * sizeof(float), cudaMemcpyDeviceToHost));

  heldout::ErrTracker err;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      const float want = a[size_t(r) * cols + c];
      err.add(t[size_t(c) * rows + r], want, 0.0, 1.0);
      err.add(nv[size_t(c) * rows + r], want, 0.0, 1.0);
    }
  if (!smem_ok) std::fprintf(stderr, "static shared bytes %zu\n", fa.sharedSizeBytes);

  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_t));
  CUDA_CHECK(cudaFree(d_n));
  return heldout::report("smem_transpose", err.ok() && smem_ok, err.max_rel,
                         tiled_timer.ms() + naive_timer.ms());
}
