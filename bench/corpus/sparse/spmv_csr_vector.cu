// Vector CSR sparse matrix-vector product y = A x: one warp per row, the lanes stride over
// the row's non-zeros (coalesced loads of val/col_idx) and the partial sums are combined with
// a warp-shuffle tree. 256 K rows with 16..112 non-zeros (~17 M in total): rows long enough
// that the warp-per-row mapping pays off. The lane/warp split uses warpSize, so the kernel is
// correct for 32- and 64-wide warps; a warp whose row is out of range exits as a whole, so
// every lane that reaches the shuffles is active.
// Tolerance: per-row error against the double CPU result relative to sum_j |a_ij x_j|. Each
// lane sums <= 4 products and the tree adds log2(warpSize) levels, so the float error is
// below ~12 * 6e-8 of that scale; 1e-5 is a safe bound, a wrong or missing term is >= 1e-3.
#include "../include/corpus.cuh"

__global__ void spmv_csr_vector(int rows, const int* __restrict__ row_ptr,
                                const int* __restrict__ col_idx, const float* __restrict__ val,
                                const float* __restrict__ x, float* __restrict__ y) {
  const int lane = threadIdx.x % warpSize;
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  if (row >= rows) return;  // uniform across the warp
  const int begin = row_ptr[row];
  const int end = row_ptr[row + 1];
  float sum = 0.0f;
  for (int j = begin + lane; j < end; j += warpSize) sum += val[j] * x[col_idx[j]];
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    sum += __shfl_down_sync(0xffffffff, sum, offset);
  if (lane == 0) y[row] = sum;
}

int main() {
  const int rows = 1 << 18;
  const int cols = 1 << 18;
  corpus::Rng rng(0x5C5Cu);
  std::vector<int> row_ptr(rows + 1, 0);
  for (int r = 0; r < rows; ++r) row_ptr[r + 1] = row_ptr[r] + 16 + static_cast<int>(rng.below(97));
  const int nnz = row_ptr[rows];
  std::vector<int> col_idx(nnz);
  std::vector<float> val(nnz), x(cols);
  for (int r = 0; r < rows; ++r) {
    // Sorted, distinct-ish columns: a random start and random gaps, as a FEM-like row.
    int c = static_cast<int>(rng.below(cols));
    for (int j = row_ptr[r]; j < row_ptr[r + 1]; ++j) {
      c = (c + 1 + static_cast<int>(rng.below(40))) % cols;
      col_idx[j] = c;
      val[j] = rng.uniform(-1.0f, 1.0f);
    }
  }
  for (int i = 0; i < cols; ++i) x[i] = rng.uniform(-1.0f, 1.0f);

  int *d_row = nullptr, *d_col = nullptr;
  float *d_val = nullptr, *d_x = nullptr, *d_y = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_row, (rows + 1) * sizeof(int)));
  CORPUS_CHECK(cudaMalloc(&d_col, nnz * sizeof(int)));
  CORPUS_CHECK(cudaMalloc(&d_val, nnz * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&d_x, cols * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&d_y, rows * sizeof(float)));
  CORPUS_CHECK(cudaMemcpy(d_row, row_ptr.data(), (rows + 1) * sizeof(int), cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(d_col, col_idx.data(), nnz * sizeof(int), cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(d_val, val.data(), nnz * sizeof(float), cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(d_x, x.data(), cols * sizeof(float), cudaMemcpyHostToDevice));

  cudaDeviceProp prop;
  int device = 0;
  CORPUS_CHECK(cudaGetDevice(&device));
  CORPUS_CHECK(cudaGetDeviceProperties(&prop, device));
  const int threads = 256;  // a multiple of 32 and 64
  const int rows_per_block = threads / prop.warpSize;
  const int blocks = (rows + rows_per_block - 1) / rows_per_block;

  spmv_csr_vector<<<blocks, threads>>>(rows, d_row, d_col, d_val, d_x, d_y);  // warm-up
  CORPUS_CHECK_LAUNCH();
  CORPUS_CHECK(cudaDeviceSynchronize());

  const int reps = 20;
  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) {
    spmv_csr_vector<<<blocks, threads>>>(rows, d_row, d_col, d_val, d_x, d_y);
    CORPUS_CHECK_LAUNCH();
  }
  const float gpu_ms = timer.stop();

  std::vector<float> y(rows);
  CORPUS_CHECK(cudaMemcpy(y.data(), d_y, rows * sizeof(float), cudaMemcpyDeviceToHost));

  // CPU reference in double, error scaled by sum |a_ij x_j| per row.
  double worst = 0.0;
  for (int r = 0; r < rows; ++r) {
    double sum = 0.0, scale = 0.0;
    for (int j = row_ptr[r]; j < row_ptr[r + 1]; ++j) {
      const double p = static_cast<double>(val[j]) * x[col_idx[j]];
      sum += p;
      scale += std::fabs(p);
    }
    const double e = std::fabs(static_cast<double>(y[r]) - sum) / (scale > 1e-30 ? scale : 1e-30);
    if (!(e <= worst)) worst = e;
  }
  const bool pass = worst <= 1e-5;

  CORPUS_CHECK(cudaFree(d_row));
  CORPUS_CHECK(cudaFree(d_col));
  CORPUS_CHECK(cudaFree(d_val));
  CORPUS_CHECK(cudaFree(d_x));
  CORPUS_CHECK(cudaFree(d_y));
  return corpus::report("spmv_csr_vector", pass, worst, gpu_ms);
}
