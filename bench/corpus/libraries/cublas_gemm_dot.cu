// cuBLAS: C = alpha * A^T * B + beta * C with cublasSgemm on column-major 512x512 matrices (A
// stored transposed, as row-major code passes it), then a dot product of two columns of C with
// cublasSdot, against a double-precision CPU reference. The handle, its stream and every status
// are checked.
#include <cublas_v2.h>

#include "../include/corpus.cuh"

#define CUBLAS_CHECK(call) CORPUS_CHECK_STATUS(call, CUBLAS_STATUS_SUCCESS)

int main() {
  const int n = corpus::sized(512, 64);
  const int reps = corpus::reps(20);
  const size_t elems = (size_t)n * n;
  corpus::Rng rng(0xb1a5u);
  std::vector<float> hA(elems), hB(elems), hC(elems);
  for (auto& v : hA) v = rng.uniform(-1.0f, 1.0f);
  for (auto& v : hB) v = rng.uniform(-1.0f, 1.0f);
  for (auto& v : hC) v = rng.uniform(-1.0f, 1.0f);
  float *dA = nullptr, *dB = nullptr, *dC = nullptr;
  CORPUS_CHECK(cudaMalloc(&dA, elems * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&dB, elems * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&dC, elems * sizeof(float)));
  CORPUS_CHECK(cudaMemcpy(dA, hA.data(), elems * sizeof(float), cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(dB, hB.data(), elems * sizeof(float), cudaMemcpyHostToDevice));

  cublasHandle_t handle;
  CUBLAS_CHECK(cublasCreate(&handle));
  cudaStream_t stream;
  CORPUS_CHECK(cudaStreamCreate(&stream));
  CUBLAS_CHECK(cublasSetStream(handle, stream));
  const float alpha = 1.5f, beta = -0.5f;
  corpus::GpuTimer timer;
  float gpu_ms = 0.0f;
  for (int r = 0; r < reps; ++r) {
    CORPUS_CHECK(cudaMemcpy(dC, hC.data(), elems * sizeof(float), cudaMemcpyHostToDevice));
    timer.start();
    CUBLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, n, n, n, &alpha, dA, n, dB, n, &beta, dC, n));
    gpu_ms += timer.stop();
  }
  float dot = 0.0f;
  CUBLAS_CHECK(cublasSdot(handle, n, dC, 1, dC + (size_t)(n - 1) * n, 1, &dot));  // columns 0 and n-1
  CORPUS_CHECK(cudaStreamSynchronize(stream));
  std::vector<float> got(elems);
  CORPUS_CHECK(cudaMemcpy(got.data(), dC, elems * sizeof(float), cudaMemcpyDeviceToHost));
  CUBLAS_CHECK(cublasDestroy(handle));
  CORPUS_CHECK(cudaStreamDestroy(stream));

  // Column-major: element (i, j) at [i + j * n]; op(A) = A^T, so (A^T)(i, k) = A[k + i * n].
  std::vector<double> want(elems);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      double s = 0.0;
      for (int k = 0; k < n; ++k) s += (double)hA[k + (size_t)i * n] * hB[k + (size_t)j * n];
      want[i + (size_t)j * n] = alpha * s + beta * hC[i + (size_t)j * n];
    }
  double want_dot = 0.0;
  for (int i = 0; i < n; ++i) want_dot += want[i] * want[i + (size_t)(n - 1) * n];
  // n-term float dot products of values in [-1, 1] (magnitude ~sqrt(n / 9)): floor 1.0.
  double err = 0.0;
  for (size_t i = 0; i < elems; ++i) err = std::fmax(err, corpus::rel_err(got[i], want[i], 1.0));
  const double dot_err = corpus::rel_err(dot, want_dot, 1.0);
  const bool pass = err <= 1e-4 && dot_err <= 1e-3;
  if (!pass) std::fprintf(stderr, "cublas_gemm_dot: gemm error %g, dot %g (want %g)\n", err, dot, want_dot);
  CORPUS_CHECK(cudaFree(dA));
  CORPUS_CHECK(cudaFree(dB));
  CORPUS_CHECK(cudaFree(dC));
  return corpus::report("cublas_gemm_dot", pass, std::fmax(err, dot_err), gpu_ms / reps);
}
