// Vector CSR sparse matrix-vector product y = A x: one warp per row, the lanes stride over
// the row's non-zeros (coalesced loads of val/col_idx) and the partial sums are combined with
// a warp-shuffle tree. 256 K rows with 16..112 non-zeros (~17 M in total): rows long enough
// that the warp-per-row mapping pays off. The lane/warp split uses warpSize, so the kernel is
// correct for 32- and 64-wide warps; a warp whose row is out of range exits as a whole, so
// every lane that reaches the shuffles is active.
// Tolerance: per-row error against the double CPU result relative to sum_j |a_ij x_j|. Each
// lane sums <= 4 products and the tree adds log2(warpSize) levels, so the float error is
// below ~12 * 6e-8 of that scale; 1e-5 is a safe bound, a wrong or missing term is >= 1e-3.
#include "../include/csr.cuh"

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
  const int rows = corpus::sized(1 << 18, 1 << 13);
  const int cols = corpus::sized(1 << 18, 1 << 13);
  corpus::Rng rng(0x5C5Cu);
  corpus::CsrMatrix a;
  a.rows = rows;
  a.cols = cols;
  std::vector<int>& row_ptr = a.row_ptr;
  row_ptr.assign(rows + 1, 0);
  for (int r = 0; r < rows; ++r) row_ptr[r + 1] = row_ptr[r] + 16 + static_cast<int>(rng.below(97));
  const int nnz = row_ptr[rows];
  std::vector<int>& col_idx = a.col_idx;
  std::vector<float>& val = a.val;
  col_idx.resize(nnz);
  val.resize(nnz);
  std::vector<float> x(cols);
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

  corpus::DeviceCsr d(a, x);

  cudaDeviceProp prop;
  int device = 0;
  CORPUS_CHECK(cudaGetDevice(&device));
  CORPUS_CHECK(cudaGetDeviceProperties(&prop, device));
  const int threads = 256;  // a multiple of 32 and 64
  const int rows_per_block = threads / prop.warpSize;
  const int blocks = (rows + rows_per_block - 1) / rows_per_block;

  spmv_csr_vector<<<blocks, threads>>>(rows, d.row_ptr, d.col_idx, d.val, d.x, d.y);  // warm-up
  CORPUS_CHECK_LAUNCH();
  CORPUS_CHECK(cudaDeviceSynchronize());

  const int reps = corpus::reps(20);
  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) {
    spmv_csr_vector<<<blocks, threads>>>(rows, d.row_ptr, d.col_idx, d.val, d.x, d.y);
    CORPUS_CHECK_LAUNCH();
  }
  const float gpu_ms = timer.stop();

  std::vector<float> y(rows);
  CORPUS_CHECK(cudaMemcpy(y.data(), d.y, rows * sizeof(float), cudaMemcpyDeviceToHost));

  // CPU reference in double, error scaled by sum |a_ij x_j| per row.
  const double worst = corpus::csr_spmv_error(a, x, y);
  const bool pass = worst <= 1e-5;

  return corpus::report("spmv_csr_vector", pass, worst, gpu_ms);
}
