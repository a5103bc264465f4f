// Sparse lower-triangular solve L x = b in double precision by level scheduling (1 M rows).
// Row i depends on the rows j < i of its off-diagonal entries; level(i) = 1 + max level(j).
// All rows of one level are independent, so the host launches one kernel per level over a
// list of the level's rows (built once by a counting sort on the level); each thread does the
// forward substitution of one row, reading x values finished in earlier levels.
// L has 0..4 off-diagonal entries per row, columns uniform over the earlier rows (a random DAG
// of depth ~ a few dozen levels), the diagonal stored last and made dominant so the solve is
// well conditioned.
// Tolerance: 1e-10 relative (floor 1e-3). The GPU performs exactly the CPU's operations in the
// same order except for fused multiply-adds (~1 ulp = 1.1e-16 each); diagonal dominance damps
// the propagation, so differences stay ~1e-15, far below 1e-10.
#include "../include/corpus.cuh"

#include <algorithm>

__global__ void sptrsv_level(const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
                             const double* __restrict__ val, const double* __restrict__ b,
                             const int* __restrict__ level_rows, int count, double* x) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= count) return;
  const int row = level_rows[t];
  const int diag = row_ptr[row + 1] - 1;  // diagonal is the last entry of the row
  double sum = b[row];
  for (int j = row_ptr[row]; j < diag; ++j) sum -= val[j] * x[col_idx[j]];
  x[row] = sum / val[diag];
}

int main() {
  const int n = corpus::sized(1 << 20, 1 << 15);
  corpus::Rng rng(0x7257u);
  std::vector<int> row_ptr(n + 1, 0), col_idx;
  std::vector<double> val, b(n);
  col_idx.reserve(static_cast<size_t>(n) * 4);
  val.reserve(static_cast<size_t>(n) * 4);
  std::vector<int> cols;
  for (int i = 0; i < n; ++i) {
    cols.clear();
    const int k = (i == 0) ? 0 : static_cast<int>(rng.below(5));
    for (int t = 0; t < k; ++t) cols.push_back(static_cast<int>(rng.below(i)));
    std::sort(cols.begin(), cols.end());
    cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
    double off = 0.0;
    for (int c : cols) {
      const double v = rng.uniform(-1.0f, 1.0f);
      col_idx.push_back(c);
      val.push_back(v);
      off += std::fabs(v);
    }
    col_idx.push_back(i);
    val.push_back(1.0 + off + rng.uniform());  // strictly dominant diagonal
    row_ptr[i + 1] = static_cast<int>(col_idx.size());
    b[i] = rng.uniform(-1.0f, 1.0f);
  }
  const int nnz = row_ptr[n];

  // Level sets, then rows grouped by level (counting sort, rows ascending within a level).
  std::vector<int> level(n);
  int num_levels = 0;
  for (int i = 0; i < n; ++i) {
    int l = 0;
    for (int j = row_ptr[i]; j < row_ptr[i + 1] - 1; ++j) l = std::max(l, level[col_idx[j]] + 1);
    level[i] = l;
    num_levels = std::max(num_levels, l + 1);
  }
  std::vector<int> level_ptr(num_levels + 1, 0), level_rows(n);
  for (int i = 0; i < n; ++i) ++level_ptr[level[i] + 1];
  for (int l = 0; l < num_levels; ++l) level_ptr[l + 1] += level_ptr[l];
  {
    std::vector<int> cursor(level_ptr.begin(), level_ptr.end() - 1);
    for (int i = 0; i < n; ++i) level_rows[cursor[level[i]]++] = i;
  }

  int *d_row = nullptr, *d_col = nullptr, *d_level_rows = nullptr;
  double *d_val = nullptr, *d_b = nullptr, *d_x = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_row, (n + 1) * sizeof(int)));
  CORPUS_CHECK(cudaMalloc(&d_col, nnz * sizeof(int)));
  CORPUS_CHECK(cudaMalloc(&d_val, nnz * sizeof(double)));
  CORPUS_CHECK(cudaMalloc(&d_b, n * sizeof(double)));
  CORPUS_CHECK(cudaMalloc(&d_x, n * sizeof(double)));
  CORPUS_CHECK(cudaMalloc(&d_level_rows, n * sizeof(int)));
  CORPUS_CHECK(cudaMemcpy(d_row, row_ptr.data(), (n + 1) * sizeof(int), cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(d_col, col_idx.data(), nnz * sizeof(int), cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(d_val, val.data(), nnz * sizeof(double), cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(d_b, b.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(d_level_rows, level_rows.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  const int threads = 128;
  auto solve = [&]() {
    for (int l = 0; l < num_levels; ++l) {
      const int count = level_ptr[l + 1] - level_ptr[l];
      sptrsv_level<<<(count + threads - 1) / threads, threads>>>(
          d_row, d_col, d_val, d_b, d_level_rows + level_ptr[l], count, d_x);
      CORPUS_CHECK_LAUNCH();
    }
  };
  solve();  // warm-up
  CORPUS_CHECK(cudaDeviceSynchronize());
  const int reps = corpus::reps(10);
  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) solve();
  const float gpu_ms = timer.stop();

  std::vector<double> x(n);
  CORPUS_CHECK(cudaMemcpy(x.data(), d_x, n * sizeof(double), cudaMemcpyDeviceToHost));

  // CPU reference: sequential forward substitution in row order.
  std::vector<double> ref(n);
  for (int i = 0; i < n; ++i) {
    const int diag = row_ptr[i + 1] - 1;
    double sum = b[i];
    for (int j = row_ptr[i]; j < diag; ++j) sum -= val[j] * ref[col_idx[j]];
    ref[i] = sum / val[diag];
  }

  const double err = corpus::max_rel_err(x, ref, 1e-3);
  const bool pass = err <= 1e-10;
  std::printf("sptrsv: %d rows, %d non-zeros, %d levels (level 0: %d rows)\n", n, nnz, num_levels,
              level_ptr[1]);

  CORPUS_CHECK(cudaFree(d_row));
  CORPUS_CHECK(cudaFree(d_col));
  CORPUS_CHECK(cudaFree(d_val));
  CORPUS_CHECK(cudaFree(d_b));
  CORPUS_CHECK(cudaFree(d_x));
  CORPUS_CHECK(cudaFree(d_level_rows));
  return corpus::report("sptrsv_levels", pass, err, gpu_ms);
}
