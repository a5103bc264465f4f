// Sparse matrix-vector product y = A*x in CSR form, "vector" kernel: one warp
// per row, lanes stride over the row's non-zeros and combine with
// __shfl_down_sync. Compared with a scalar one-thread-per-row kernel.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "../include/heldout.cuh"

__global__ void spmv_csr_scalar(int rows, const int* __restrict__ row_ptr, const int* __restrict__ cols,
                                const float* __restrict__ vals, const float* __restrict__ x,
                                float* __restrict__ y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float acc = 0.0f;
  for (int k = row_ptr[r]; k < row_ptr[r + 1]; ++k) acc += vals[k] * __ldg(&x[cols[k]]);
  y[r] = acc;
}

__global__ void spmv_csr_vector(int rows, const int* __restrict__ row_ptr, const int* __restrict__ cols,
                                const float* __restrict__ vals, const float* __restrict__ x,
                                float* __restrict__ y) {
  const int warp = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  const int lane = threadIdx.x % warpSize;
  if (warp >= rows) return;  // whole warp exits together
  const int begin = row_ptr[warp], end = row_ptr[warp + 1];
  float acc = 0.0f;
  for (int k = begin + lane; k < end; k += warpSize) acc += vals[k] * __ldg(&x[cols[k]]);
  for (int off = warpSize / 2; off > 0; off /= 2) acc += __shfl_down_sync(0xffffffff, acc, off);
  if (lane == 0) y[warp] = acc;
}

int main() {
  const int rows = 60000, ncols = 60000;
  heldout::Lcg rng(2718);
  std::vector<int> row_ptr(rows + 1, 0), cols;
  std::vector<float> vals;
  cols.reserve(rows * 24);
  vals.reserve(rows * 24);
  for (int r = 0; r < rows; ++r) {
    // Tridiagonal band plus a varying number of scattered entries (ascending).
    const int extra = int(rng.next() % 40);
    std::vector<int> cs = {r - 1, r, r + 1};
    for (int e = 0; e < extra; ++e) cs.push_back(int(rng.next() % ncols));
    std::sort(cs.begin(), cs.end());
    int last = -1;
    for (int c : cs) {
      if (c < 0 || c >= ncols || c == last) continue;
      cols.push_back(c);
      vals.push_back(c == r ? 4.0f : rng.uniform(-1.0f, 1.0f));
      last = c;
    }
    row_ptr[r + 1] = int(cols.size());
  }
  const int nnz = int(cols.size());
  std::vector<float> x(ncols);
  for (auto& v : x) v = rng.uniform(-1.0f, 1.0f);

  int *d_rp, *d_cols;
  float *d_vals, *d_x, *d_y1, *d_y2;
  CUDA_CHECK(cudaMalloc(&d_rp, (rows + 1) * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_cols, nnz * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_vals, nnz * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_x, ncols * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_y1, rows * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_y2, rows * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_rp, row_ptr.data(), (rows + 1) * sizeof(int), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_cols, cols.data(), nnz * sizeof(int), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_vals, vals.data(), nnz * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_x, x.data(), ncols * sizeof(float), cudaMemcpyHostToDevice));

  heldout::GpuTimer timer;
  timer.start();
  spmv_csr_scalar<<<(rows + 255) / 256, 256>>>(rows, d_rp, d_cols, d_vals, d_x, d_y1);
  CUDA_CHECK_LAUNCH();
  const int threads = 256, rows_per_block = threads / 32;
  spmv_csr_vector<<<(rows + rows_per_block - 1) / rows_per_block, threads>>>(rows, d_rp, d_cols, d_vals,
                                                                            d_x, d_y2);
  CUDA_CHECK_LAUNCH();
  timer.stop();
  std::vector<float> y1(rows), y2(rows);
  CUDA_CHECK(cudaMemcpy(y1.data(), d_y1, rows * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(y2.data(), d_y2, rows * sizeof(float), cudaMemcpyDeviceToHost));

  heldout::ErrTracker err;
  for (int r = 0; r < rows; ++r) {
    double acc = 0.0;
    for (int k = row_ptr[r]; k < row_ptr[r + 1]; ++k) acc += double(vals[k]) * x[cols[k]];
    err.add(y1[r], acc, 1e-4, 1.0);
    err.add(y2[r], acc, 1e-4, 1.0);
  }

  CUDA_CHECK(cudaFree(d_rp));
  CUDA_CHECK(cudaFree(d_cols));
  CUDA_CHECK(cudaFree(d_vals));
  CUDA_CHECK(cudaFree(d_x));
  CUDA_CHECK(cudaFree(d_y1));
  CUDA_CHECK(cudaFree(d_y2));
  return heldout::report("csr_spmv_vector", err.ok(), err.max_rel, timer.ms());
}
