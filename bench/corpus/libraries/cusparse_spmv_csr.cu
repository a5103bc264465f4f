// cuSPARSE's generic API: y = alpha * A * x + beta * y for a CSR matrix (a 2-D 5-point Laplacian
// with a random diagonal shift, 256x256 grid = 65536 rows) through cusparseCreateCsr,
// cusparseCreateDnVec, cusparseSpMV_bufferSize and cusparseSpMV, against a CPU reference.
#include <cusparse.h>

#include "../include/corpus.cuh"

#define CUSPARSE_CHECK(call) CORPUS_CHECK_STATUS(call, CUSPARSE_STATUS_SUCCESS)

int main() {
  const int g = corpus::sized(256, 48);  // grid side
  const int rows = g * g;
  corpus::Rng rng(0x5a55u);
  std::vector<int> rowptr(rows + 1, 0), col;
  std::vector<float> val;
  for (int r = 0; r < rows; ++r) {
    const int i = r / g, j = r % g;
    const int nb[5][2] = {{i - 1, j}, {i, j - 1}, {i, j}, {i, j + 1}, {i + 1, j}};
    for (const auto& p : nb) {
      if (p[0] < 0 || p[0] >= g || p[1] < 0 || p[1] >= g) continue;
      col.push_back(p[0] * g + p[1]);
      val.push_back(p[0] == i && p[1] == j ? 4.0f + rng.uniform(0.0f, 1.0f) : -1.0f);
    }
    rowptr[r + 1] = static_cast<int>(col.size());
  }
  const int nnz = static_cast<int>(col.size());
  std::vector<float> x(rows), y(rows);
  for (auto& v : x) v = rng.uniform(-1.0f, 1.0f);
  for (auto& v : y) v = rng.uniform(-1.0f, 1.0f);

  int *d_rowptr = nullptr, *d_col = nullptr;
  float *d_val = nullptr, *d_x = nullptr, *d_y = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_rowptr, (rows + 1) * sizeof(int)));
  CORPUS_CHECK(cudaMalloc(&d_col, nnz * sizeof(int)));
  CORPUS_CHECK(cudaMalloc(&d_val, nnz * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&d_x, rows * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&d_y, rows * sizeof(float)));
  CORPUS_CHECK(cudaMemcpy(d_rowptr, rowptr.data(), (rows + 1) * sizeof(int), cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(d_col, col.data(), nnz * sizeof(int), cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(d_val, val.data(), nnz * sizeof(float), cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(d_x, x.data(), rows * sizeof(float), cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(d_y, y.data(), rows * sizeof(float), cudaMemcpyHostToDevice));

  cusparseHandle_t handle;
  CUSPARSE_CHECK(cusparseCreate(&handle));
  cusparseSpMatDescr_t A;
  cusparseDnVecDescr_t vx, vy;
  CUSPARSE_CHECK(cusparseCreateCsr(&A, rows, rows, nnz, d_rowptr, d_col, d_val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
  CUSPARSE_CHECK(cusparseCreateDnVec(&vx, rows, d_x, CUDA_R_32F));
  CUSPARSE_CHECK(cusparseCreateDnVec(&vy, rows, d_y, CUDA_R_32F));
  const float alpha = 2.0f, beta = 0.25f;
  size_t bytes = 0;
  CUSPARSE_CHECK(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx, &beta, vy, CUDA_R_32F,
                                         CUSPARSE_SPMV_ALG_DEFAULT, &bytes));
  void* buffer = nullptr;
  CORPUS_CHECK(cudaMalloc(&buffer, bytes > 0 ? bytes : 1));
  corpus::GpuTimer timer;
  timer.start();
  CUSPARSE_CHECK(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx, &beta, vy, CUDA_R_32F,
                              CUSPARSE_SPMV_ALG_DEFAULT, buffer));
  const float gpu_ms = timer.stop();
  std::vector<float> got(rows);
  CORPUS_CHECK(cudaMemcpy(got.data(), d_y, rows * sizeof(float), cudaMemcpyDeviceToHost));
  CUSPARSE_CHECK(cusparseDestroySpMat(A));
  CUSPARSE_CHECK(cusparseDestroyDnVec(vx));
  CUSPARSE_CHECK(cusparseDestroyDnVec(vy));
  CUSPARSE_CHECK(cusparseDestroy(handle));

  double err = 0.0;
  for (int r = 0; r < rows; ++r) {
    double s = 0.0;
    for (int k = rowptr[r]; k < rowptr[r + 1]; ++k) s += (double)val[k] * x[col[k]];
    err = std::fmax(err, corpus::rel_err(got[r], alpha * s + beta * y[r], 1.0));
  }
  const bool pass = err <= 1e-5;
  if (!pass) std::fprintf(stderr, "cusparse_spmv_csr: error %g\n", err);
  for (void* p : {(void*)d_rowptr, (void*)d_col, (void*)d_val, (void*)d_x, (void*)d_y, buffer}) CORPUS_CHECK(cudaFree(p));
  return corpus::report("cusparse_spmv_csr", pass, err, gpu_ms);
}
