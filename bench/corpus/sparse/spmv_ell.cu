// ELLPACK sparse matrix-vector product y = A x (1 M rows, 6..22 non-zeros per row, padded to
// the widest row). The padded arrays are stored column-major, val[k * rows + row], so
// consecutive threads (rows) read consecutive addresses in every slot k: fully coalesced.
// Padding slots hold column -1 and value 0; rows end at their first padding slot.
// Tolerance: per-row error against the double CPU result relative to sum_j |a_ij x_j|; a float
// dot product of k <= 22 terms is within ~(k+1) * 6e-8 ~ 1.4e-6 of that scale, so 1e-5 is a
// guaranteed bound, while a wrong column or a missing term is off by >= 1e-3.
#include "../include/corpus.cuh"

#include <algorithm>

__global__ void spmv_ell(int rows, int width, const int* __restrict__ ell_col,
                         const float* __restrict__ ell_val, const float* __restrict__ x,
                         float* __restrict__ y) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  float sum = 0.0f;
  for (int k = 0; k < width; ++k) {
    const size_t slot = static_cast<size_t>(k) * rows + row;
    const int c = ell_col[slot];
    if (c < 0) break;
    sum += ell_val[slot] * x[c];
  }
  y[row] = sum;
}

int main() {
  const int rows = corpus::sized(1 << 20, 1 << 15);
  const int cols = rows;
  corpus::Rng rng(0xE11u);
  // Build the matrix row by row (CSR-like lists), then pack into ELL.
  std::vector<int> len(rows);
  int width = 0;
  for (int r = 0; r < rows; ++r) {
    len[r] = 6 + static_cast<int>(rng.below(17));
    if (len[r] > width) width = len[r];
  }
  const size_t slots = static_cast<size_t>(width) * rows;
  std::vector<int> ell_col(slots, -1);
  std::vector<float> ell_val(slots, 0.0f), x(cols);
  for (int r = 0; r < rows; ++r) {
    for (int k = 0; k < len[r]; ++k) {
      // A 5-point-stencil-like core plus scattered long-range couplings.
      int c = (k < 3) ? r + (k - 1) * 1024 + static_cast<int>(rng.below(3)) - 1
                      : static_cast<int>(rng.below(cols));
      c = (c % cols + cols) % cols;
      ell_col[static_cast<size_t>(k) * rows + r] = c;
      ell_val[static_cast<size_t>(k) * rows + r] = rng.uniform(-1.0f, 1.0f);
    }
  }
  for (int i = 0; i < cols; ++i) x[i] = rng.uniform(-1.0f, 1.0f);

  int* d_col = nullptr;
  float *d_val = nullptr, *d_x = nullptr, *d_y = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_col, slots * sizeof(int)));
  CORPUS_CHECK(cudaMalloc(&d_val, slots * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&d_x, cols * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&d_y, rows * sizeof(float)));
  CORPUS_CHECK(cudaMemcpy(d_col, ell_col.data(), slots * sizeof(int), cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(d_val, ell_val.data(), slots * sizeof(float), cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(d_x, x.data(), cols * sizeof(float), cudaMemcpyHostToDevice));

  const int threads = 256;
  const int blocks = (rows + threads - 1) / threads;
  spmv_ell<<<blocks, threads>>>(rows, width, d_col, d_val, d_x, d_y);  // warm-up
  CORPUS_CHECK_LAUNCH();
  CORPUS_CHECK(cudaDeviceSynchronize());

  const int reps = corpus::reps(20);
  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) {
    spmv_ell<<<blocks, threads>>>(rows, width, d_col, d_val, d_x, d_y);
    CORPUS_CHECK_LAUNCH();
  }
  const float gpu_ms = timer.stop();

  std::vector<float> y(rows);
  CORPUS_CHECK(cudaMemcpy(y.data(), d_y, rows * sizeof(float), cudaMemcpyDeviceToHost));

  // CPU reference in double over the row lists, error scaled by sum |a_ij x_j|.
  double worst = 0.0;
  for (int r = 0; r < rows; ++r) {
    double sum = 0.0, scale = 0.0;
    for (int k = 0; k < len[r]; ++k) {
      const size_t slot = static_cast<size_t>(k) * rows + r;
      const double p = static_cast<double>(ell_val[slot]) * x[ell_col[slot]];
      sum += p;
      scale += std::fabs(p);
    }
    const double e = std::fabs(static_cast<double>(y[r]) - sum) / (scale > 1e-30 ? scale : 1e-30);
    if (!(e <= worst)) worst = e;
  }
  const bool pass = worst <= 1e-5;
  std::printf("ell: %d rows, width %d, fill %.1f%%\n", rows, width,
              100.0 * (slots - std::count(ell_col.begin(), ell_col.end(), -1)) / slots);

  CORPUS_CHECK(cudaFree(d_col));
  CORPUS_CHECK(cudaFree(d_val));
  CORPUS_CHECK(cudaFree(d_x));
  CORPUS_CHECK(cudaFree(d_y));
  return corpus::report("spmv_ell", pass, worst, gpu_ms);
}
