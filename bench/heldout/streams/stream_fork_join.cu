// Fork/join across prioritized streams: the main stream forks work to a
// high-priority and a low-priority stream with events, then joins them and
// combines the results. Uses event timing and stream/event queries.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "../include/heldout.cuh"

__global__ void poly_eval(const float* __restrict__ x, float* __restrict__ y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    y[i] = ((0.5f * v - 1.0f) * v + 2.0f) * v - 0.75f;  // Horner
  }
}

__global__ void smooth3(const float* __restrict__ x, float* __restrict__ y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float l = x[i > 0 ? i - 1 : i];
    float r = x[i < n - 1 ? i + 1 : i];
    y[i] = 0.25f * l + 0.5f * x[i] + 0.25f * r;
  }
}

__global__ void combine(const float* __restrict__ p, const float* __restrict__ q,
                        float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = p[i] - 2.0f * q[i];
}

int main() {
  const int n = 1 << 19;
  const size_t bytes = n * sizeof(float);
  std::vector<float> h_x(n), h_out(n);
  heldout::Lcg rng(42);
  for (auto& v : h_x) v = rng.uniform(-2.0f, 2.0f);

  int least = 0, greatest = 0;
  CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  cudaStream_t main_s, hi, lo;
  CUDA_CHECK(cudaStreamCreate(&main_s));
  CUDA_CHECK(cudaStreamCreateWithPriority(&hi, cudaStreamNonBlocking, greatest));
  CUDA_CHECK(cudaStreamCreateWithPriority(&lo, cudaStreamNonBlocking, least));
  int prio_hi = 0, prio_lo = 0;
  CUDA_CHECK(cudaStreamGetPriority(hi, &prio_hi));
  CUDA_CHECK(cudaStreamGetPriority(lo, &prio_lo));
  unsigned flags = 0;
  CUDA_CHECK(cudaStreamGetFlags(hi, &flags));
  bool meta_ok = prio_hi == greatest && prio_lo == least && (flags & cudaStreamNonBlocking);

  float *d_x, *d_p, *d_q, *d_out;
  CUDA_CHECK(cudaMalloc(&d_x, bytes));
  CUDA_CHECK(cudaMalloc(&d_p, bytes));
  CUDA_CHECK(cudaMalloc(&d_q, bytes));
  CUDA_CHECK(cudaMalloc(&d_out, bytes));

  cudaEvent_t start, stop, forked, hi_done, lo_done;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  CUDA_CHECK(cudaEventCreateWithFlags(&forked, cudaEventDisableTiming));
  CUDA_CHECK(cudaEventCreateWithFlags(&hi_done, cudaEventDisableTiming));
  CUDA_CHECK(cudaEventCreateWithFlags(&lo_done, cudaEventDisableTiming));

  const dim3 block(256), grid((n + 255) / 256);
  CUDA_CHECK(cudaEventRecord(start, main_s));
  CUDA_CHECK(cudaMemcpyAsync(d_x, h_x.data(), bytes, cudaMemcpyHostToDevice, main_s));
  CUDA_CHECK(cudaEventRecord(forked, main_s));
  CUDA_CHECK(cudaStreamWaitEvent(hi, forked, 0));
  CUDA_CHECK(cudaStreamWaitEvent(lo, forked, 0));
  poly_eval<<<grid, block, 0, hi>>>(d_x, d_p, n);
  CUDA_CHECK_LAUNCH();
  smooth3<<<grid, block, 0, lo>>>(d_x, d_q, n);
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaEventRecord(hi_done, hi));
  CUDA_CHECK(cudaEventRecord(lo_done, lo));
  CUDA_CHECK(cudaStreamWaitEvent(main_s, hi_done, 0));
  CUDA_CHECK(cudaStreamWaitEvent(main_s, lo_done, 0));
  combine<<<grid, block, 0, main_s>>>(d_p, d_q, d_out, n);
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaEventRecord(stop, main_s));

  // Poll instead of blocking, the way a host loop interleaving work would.
  cudaError_t q;
  while ((q = cudaEventQuery(stop)) == cudaErrorNotReady) {
  }
  CUDA_CHECK(q);
  CUDA_CHECK(cudaStreamQuery(main_s));
  float gpu_ms = 0.0f;
  CUDA_CHECK(cudaEventElapsedTime(&gpu_ms, start, stop));
  CUDA_CHECK(cudaMemcpy(h_out.data(), d_out, bytes, cudaMemcpyDeviceToHost));

  heldout::ErrTracker err;
  for (int i = 0; i < n; ++i) {
    double v = h_x[i];
    double p = ((0.5 * v - 1.0) * v + 2.0) * v - 0.75;
    double l = h_x[i > 0 ? i - 1 : i], r = h_x[i < n - 1 ? i + 1 : i];
    double s = 0.25 * l + 0.5 * v + 0.25 * r;
    err.add(h_out[i], p - 2.0 * s, 5e-5, 1.0);
  }

  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  CUDA_CHECK(cudaEventDestroy(forked));
  CUDA_CHECK(cudaEventDestroy(hi_done));
  CUDA_CHECK(cudaEventDestroy(lo_done));
  CUDA_CHECK(cudaStreamDestroy(main_s));
  CUDA_CHECK(cudaStreamDestroy(hi));
  CUDA_CHECK(cudaStreamDestroy(lo));
  CUDA_CHECK(cudaFree(d_x));
  CUDA_CHECK(cudaFree(d_p));
  CUDA_CHECK(cudaFree(d_q));
  CUDA_CHECK(cudaFree(d_out));
  return heldout::report("stream_fork_join", err.ok() && meta_ok, err.max_rel, gpu_ms);
}
