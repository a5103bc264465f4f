// Scalar CSR sparse matrix-vector product y = A x, one thread per row (1 M rows, 4..28
// non-zeros per row, ~16 M non-zeros). Column indices are a mix of a band around the diagonal
// and uniformly scattered entries, so the x gathers are partly cached and partly random.
// Tolerance: the error of each row is measured against the double CPU result relative to
// sum_j |a_ij x_j| (the natural scale of a float dot product, immune to cancellation). A float
// dot product of k terms is off by at most ~(k+1) * 6e-8 of that scale (~1.7e-6 for k = 28),
// so 1e-5 is a guaranteed bound; a wrong column or a missing term is off by ~1e-2 or more.
#include "../include/corpus.cuh"

__global__ void spmv_csr_scalar(int rows, const int* __restrict__ row_ptr,
                                const int* __restrict__ col_idx, const float* __restrict__ val,
                                const float* __restrict__ x, float* __restrict__ y) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  float sum = 0.0f;
  const int end = row_ptr[row + 1];
  for (int j = row_ptr[row]; j < end; ++j) sum += val[j] * x[col_idx[j]];
  y[row] = sum;
}

int main() {
  const int rows = 1 << 20;
  const int cols = rows;
  corpus::Rng rng(0x5C5Bu);
  std::vector<int> row_ptr(rows + 1, 0);
  for (int r = 0; r < rows; ++r) row_ptr[r + 1] = row_ptr[r] + 4 + static_cast<int>(rng.below(25));
  const int nnz = row_ptr[rows];
  std::vector<int> col_idx(nnz);
  std::vector<float> val(nnz), x(cols);
  for (int r = 0; r < rows; ++r) {
    for (int j = row_ptr[r]; j < row_ptr[r + 1]; ++j) {
      const int band = static_cast<int>(rng.below(257)) - 128;
      int c = (j & 1) ? static_cast<int>(rng.below(cols)) : r + band;
      if (c < 0) c += cols;
      if (c >= cols) c -= cols;
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

  const int threads = 256;
  const int blocks = (rows + threads - 1) / threads;
  spmv_csr_scalar<<<blocks, threads>>>(rows, d_row, d_col, d_val, d_x, d_y);  // warm-up
  CORPUS_CHECK_LAUNCH();
  CORPUS_CHECK(cudaDeviceSynchronize());

  const int reps = 20;
  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) {
    spmv_csr_scalar<<<blocks, threads>>>(rows, d_row, d_col, d_val, d_x, d_y);
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
  return corpus::report("spmv_csr", pass, worst, gpu_ms);
}
