// Scalar CSR sparse matrix-vector product y = A x, one thread per row (1 M rows, 4..28
// non-zeros per row, ~16 M non-zeros). Column indices are a mix of a band around the diagonal
// and uniformly scattered entries, so the x gathers are partly cached and partly random.
// Tolerance: the error of each row is measured against the double CPU result relative to
// sum_j |a_ij x_j| (the natural scale of a float dot product, immune to cancellation). A float
// dot product of k terms is off by at most ~(k+1) * 6e-8 of that scale (~1.7e-6 for k = 28),
// so 1e-5 is a guaranteed bound; a wrong column or a missing term is off by ~1e-2 or more.
#include "../include/csr.cuh"

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
  const int rows = corpus::sized(1 << 20, 1 << 15);
  const int cols = rows;
  corpus::Rng rng(0x5C5Bu);
  corpus::CsrMatrix a;
  a.rows = rows;
  a.cols = cols;
  std::vector<int>& row_ptr = a.row_ptr;
  row_ptr.assign(rows + 1, 0);
  for (int r = 0; r < rows; ++r) row_ptr[r + 1] = row_ptr[r] + 4 + static_cast<int>(rng.below(25));
  const int nnz = row_ptr[rows];
  std::vector<int>& col_idx = a.col_idx;
  std::vector<float>& val = a.val;
  col_idx.resize(nnz);
  val.resize(nnz);
  std::vector<float> x(cols);
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

  corpus::DeviceCsr d(a, x);

  const int threads = 256;
  const int blocks = (rows + threads - 1) / threads;
  spmv_csr_scalar<<<blocks, threads>>>(rows, d.row_ptr, d.col_idx, d.val, d.x, d.y);  // warm-up
  CORPUS_CHECK_LAUNCH();
  CORPUS_CHECK(cudaDeviceSynchronize());

  const int reps = corpus::reps(20);
  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) {
    spmv_csr_scalar<<<blocks, threads>>>(rows, d.row_ptr, d.col_idx, d.val, d.x, d.y);
    CORPUS_CHECK_LAUNCH();
  }
  const float gpu_ms = timer.stop();

  std::vector<float> y(rows);
  CORPUS_CHECK(cudaMemcpy(y.data(), d.y, rows * sizeof(float), cudaMemcpyDeviceToHost));

  // CPU reference in double, error scaled by sum |a_ij x_j| per row.
  const double worst = corpus::csr_spmv_error(a, x, y);
  const bool pass = worst <= 1e-5;

  return corpus::report("spmv_csr", pass, worst, gpu_ms);
}
