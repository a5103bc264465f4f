// Row-wise softmax over half-precision logits with float accumulation, the
// way attention kernels do it: one block per row, half comparisons for the
// running max, __expf in float, and the result stored back as half.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "../include/heldout.cuh"

constexpr int kThreads = 256;

__device__ __forceinline__ float block_reduce(float v, bool is_max, float* scratch) {
  for (int off = 16; off > 0; off >>= 1) {
    float o = __shfl_xor_sync(0xffffffffu, v, off);
    v = is_max ? fmaxf(v, o) : v + o;
  }
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (lane == 0) scratch[warp] = v;
  __syncthreads();
  v = lane < kThreads / 32 ? scratch[lane] : (is_max ? -INFINITY : 0.0f);
  for (int off = 16; off > 0; off >>= 1) {
    float o = __shfl_xor_sync(0xffffffffu, v, off);
    v = is_max ? fmaxf(v, o) : v + o;
  }
  __syncthreads();  // scratch is reused by the next call
  return v;
}

__global__ void softmax_rows(const __half* __restrict__ in, __half* __restrict__ out, int cols,
                             float scale) {
  __shared__ float scratch[32];
  const __half* row = in + size_t(blockIdx.x) * cols;
  __half* orow = out + size_t(blockIdx.x) * cols;

  __half hmax = __float2half(-65504.0f);
  for (int c = threadIdx.x; c < cols; c += kThreads)
    if (__hgt(row[c], hmax)) hmax = row[c];
  const float m = block_reduce(__half2float(hmax), true, scratch);

  float sum = 0.0f;
  for (int c = threadIdx.x; c < cols; c += kThreads) sum += __expf((__half2float(row[c]) - m) * scale);
  const float inv = 1.0f / block_reduce(sum, false, scratch);

  for (int c = threadIdx.x; c < cols; c += kThreads)
    orow[c] = __float2half_rn(__expf((__half2float(row[c]) - m) * scale) * inv);
}

int main() {
  const int rows = 1024, cols = 1000;
  const float scale = 0.125f;  // 1/sqrt(64)
  std::vector<__half> h(size_t(rows) * cols);
  heldout::Lcg rng(64);
  for (auto& v : h) v = __float2half(rng.uniform(-30.0f, 30.0f));

  __half *d_in, *d_out;
  CUDA_CHECK(cudaMalloc(&d_in, h.size() * sizeof(__half)));
  CUDA_CHECK(cudaMalloc(&d_out, h.size() * sizeof(__half)));
  CUDA_CHECK(cudaMemcpy(d_in, h.data(), h.size() * sizeof(__half), cudaMemcpyHostToDevice));
  heldout::GpuTimer timer;
  timer.start();
  softmax_rows<<<rows, kThreads>>>(d_in, d_out, cols, scale);
  CUDA_CHECK_LAUNCH();
  timer.stop();
  std::vector<__half> out(h.size());
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(__half), cudaMemcpyDeviceToHost));

  heldout::ErrTracker err;
  double worst_row_sum = 0.0;
  for (int r = 0; r < rows; ++r) {
    double m = -1e30, s = 0.0, got_sum = 0.0;
    for (int c = 0; c < cols; ++c) m = std::max(m, double(__half2float(h[size_t(r) * cols + c])));
    for (int c = 0; c < cols; ++c) s += std::exp((__half2float(h[size_t(r) * cols + c]) - m) * scale);
    for (int c = 0; c < cols; ++c) {
      double want = std::exp((__half2float(h[size_t(r) * cols + c]) - m) * scale) / s;
      double got = __half2float(out[size_t(r) * cols + c]);
      got_sum += got;
      // half output: ~1e-3 relative, plus an absolute floor for tiny probabilities.
      err.add(got, want, 2e-3, 1e-4);
    }
    worst_row_sum = std::max(worst_row_sum, std::fabs(got_sum - 1.0));
  }
  const bool sum_ok = worst_row_sum < 1e-2;

  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  return heldout::report("half_softmax", err.ok() && sum_ok, err.max_rel, timer.ms());
}
