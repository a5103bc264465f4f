// Floating-point atomics: a weighted histogram with atomicAdd on float into
// shared memory then global memory, and a double-precision dot product
// accumulated with atomicAdd(double*) from per-block partials.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "../include/heldout.cuh"

constexpr int kBins = 128;

__global__ void weighted_histogram(const float* __restrict__ pos, const float* __restrict__ w, int n,
                                   float* __restrict__ hist) {
  __shared__ float local[kBins];
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) local[b] = 0.0f;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    int bin = min(int(pos[i] * kBins), kBins - 1);
    atomicAdd(&local[bin], w[i]);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) atomicAdd(&hist[b], local[b]);
}

__global__ void dot_double(const double* __restrict__ a, const double* __restrict__ b, int n,
                           double* __restrict__ result) {
  __shared__ double s[256];
  double acc = 0.0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    acc = fma(a[i], b[i], acc);
  s[threadIdx.x] = acc;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(result, s[0]);
}

int main() {
  const int n = 1 << 20;
  std::vector<float> pos(n), w(n);
  std::vector<double> a(n), b(n);
  heldout::Lcg rng(21);
  for (int i = 0; i < n; ++i) {
    float u = rng.uniform();
    pos[i] = u * u;  // skewed towards low bins
    w[i] = rng.uniform(0.5f, 1.5f);
    a[i] = rng.uniform(-1.0f, 1.0f);
    b[i] = std::sin(0.001 * i);
  }
  float *d_pos, *d_w, *d_hist;
  double *d_a, *d_b, *d_dot;
  CUDA_CHECK(cudaMalloc(&d_pos, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_w, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_hist, kBins * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_a, n * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&d_b, n * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&d_dot, sizeof(double)));
  CUDA_CHECK(cudaMemcpy(d_pos, pos.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_w, w.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_a, a.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_b, b.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_hist, 0, kBins * sizeof(float)));
  CUDA_CHECK(cudaMemset(d_dot, 0, sizeof(double)));

  heldout::GpuTimer timer;
  timer.start();
  weighted_histogram<<<120, 256>>>(d_pos, d_w, n, d_hist);
  CUDA_CHECK_LAUNCH();
  dot_double<<<240, 256>>>(d_a, d_b, n, d_dot);
  CUDA_CHECK_LAUNCH();
  timer.stop();

  std::vector<float> hist(kBins);
  double dot = 0.0;
  CUDA_CHECK(cudaMemcpy(hist.data(), d_hist, kBins * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&dot, d_dot, sizeof(double), cudaMemcpyDeviceToHost));

  std::vector<double> ref(kBins, 0.0);
  double ref_dot = 0.0;
  for (int i = 0; i < n; ++i) {
    int bin = std::min(int(pos[i] * kBins), kBins - 1);
    ref[bin] += w[i];
    ref_dot += a[i] * b[i];
  }
  heldout::ErrTracker err;
  // Float atomics in arbitrary order over up to ~1e5 terms per bin.
  for (int k = 0; k < kBins; ++k) err.add(hist[k], ref[k], 1e-4, 1.0);
  err.add(dot, ref_dot, 1e-9, 1.0);

  CUDA_CHECK(cudaFree(d_pos));
  CUDA_CHECK(cudaFree(d_w));
  CUDA_CHECK(cudaFree(d_hist));
  CUDA_CHECK(cudaFree(d_a));
  CUDA_CHECK(cudaFree(d_b));
  CUDA_CHECK(cudaFree(d_dot));
  return heldout::report("atomic_float_double", err.ok(), err.max_rel, timer.ms());
}
