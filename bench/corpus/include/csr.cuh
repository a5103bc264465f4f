// Shared by the CSR programs of the corpus: the matrix on the host, its device copy, and the
// CPU reference check of y = A x. Each row's error is measured against the double result
// relative to sum_j |a_ij x_j| (the natural scale of a float dot product, immune to
// cancellation).
#pragma once

#include <cmath>
#include <vector>

#include "corpus.cuh"

namespace corpus {

struct CsrMatrix {
  int rows = 0;
  int cols = 0;
  std::vector<int> row_ptr;  // rows + 1 entries
  std::vector<int> col_idx;
  std::vector<float> val;
  int nnz() const { return row_ptr.empty() ? 0 : row_ptr.back(); }
};

// The device copy of a CsrMatrix plus x and y; freed on destruction.
struct DeviceCsr {
  int* row_ptr = nullptr;
  int* col_idx = nullptr;
  float* val = nullptr;
  float* x = nullptr;
  float* y = nullptr;

  DeviceCsr(const CsrMatrix& a, const std::vector<float>& host_x) {
    CORPUS_CHECK(cudaMalloc(&row_ptr, (a.rows + 1) * sizeof(int)));
    CORPUS_CHECK(cudaMalloc(&col_idx, a.nnz() * sizeof(int)));
    CORPUS_CHECK(cudaMalloc(&val, a.nnz() * sizeof(float)));
    CORPUS_CHECK(cudaMalloc(&x, a.cols * sizeof(float)));
    CORPUS_CHECK(cudaMalloc(&y, a.rows * sizeof(float)));
    CORPUS_CHECK(cudaMemcpy(row_ptr, a.row_ptr.data(), (a.rows + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CORPUS_CHECK(cudaMemcpy(col_idx, a.col_idx.data(), a.nnz() * sizeof(int), cudaMemcpyHostToDevice));
    CORPUS_CHECK(cudaMemcpy(val, a.val.data(), a.nnz() * sizeof(float), cudaMemcpyHostToDevice));
    CORPUS_CHECK(cudaMemcpy(x, host_x.data(), a.cols * sizeof(float), cudaMemcpyHostToDevice));
  }
  ~DeviceCsr() {
    CORPUS_CHECK(cudaFree(row_ptr));
    CORPUS_CHECK(cudaFree(col_idx));
    CORPUS_CHECK(cudaFree(val));
    CORPUS_CHECK(cudaFree(x));
    CORPUS_CHECK(cudaFree(y));
  }
  DeviceCsr(const DeviceCsr&) = delete;
  DeviceCsr& operator=(const DeviceCsr&) = delete;
};

// Worst per-row error of y against A x computed in double, scaled by sum_j |a_ij x_j|.
inline double csr_spmv_error(const CsrMatrix& a, const std::vector<float>& x, const std::vector<float>& y) {
  double worst = 0.0;
  for (int r = 0; r < a.rows; ++r) {
    double sum = 0.0, scale = 0.0;
    for (int j = a.row_ptr[r]; j < a.row_ptr[r + 1]; ++j) {
      const double p = static_cast<double>(a.val[j]) * x[a.col_idx[j]];
      sum += p;
      scale += std::fabs(p);
    }
    const double e = std::fabs(static_cast<double>(y[r]) - sum) / (scale > 1e-30 ? scale : 1e-30);
    if (!(e <= worst)) worst = e;
  }
  return worst;
}

}  // namespace corpus
