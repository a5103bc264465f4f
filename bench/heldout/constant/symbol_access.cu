// Module-scope device variables reached from the host by symbol: a __constant__
// config struct, a __device__ bias table and a __device__ counter, accessed
// with cudaMemcpyToSymbol(Async), cudaMemcpyFromSymbol(Async),
// cudaGetSymbolAddress and cudaGetSymbolSize.
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "../include/heldout.cuh"

struct Config {
  float scale;
  float threshold;
  int period;
  int pad;
};

constexpr int kBias = 64;

__constant__ Config c_cfg;
__device__ float g_bias[kBias];
__device__ unsigned int g_over;

__global__ void biased_scale(const float* __restrict__ in, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = c_cfg.scale * in[i] + g_bias[i % c_cfg.period];
  out[i] = v;
  if (v > c_cfg.threshold) atomicAdd(&g_over, 1u);
}

int main() {
  const int n = 1 << 20;
  std::vector<float> in(n), out(n), bias(kBias);
  heldout::Lcg rng(123);
  for (auto& v : in) v = rng.uniform(-1.0f, 1.0f);
  for (int j = 0; j < kBias; ++j) bias[j] = 0.01f * j - 0.3f;
  const Config cfg = {2.5f, 1.0f, kBias, 0};

  size_t bias_bytes = 0;
  CUDA_CHECK(cudaGetSymbolSize(&bias_bytes, g_bias));
  unsigned int* d_over = nullptr;
  CUDA_CHECK(cudaGetSymbolAddress(reinterpret_cast<void**>(&d_over), g_over));

  float *d_in, *d_out;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreate(&s));

  heldout::GpuTimer timer(s);
  timer.start();
  CUDA_CHECK(cudaMemcpyAsync(d_in, in.data(), n * sizeof(float), cudaMemcpyHostToDevice, s));
  CUDA_CHECK(cudaMemcpyToSymbolAsync(c_cfg, &cfg, sizeof(cfg), 0, cudaMemcpyHostToDevice, s));
  CUDA_CHECK(cudaMemcpyToSymbolAsync(g_bias, bias.data(), bias_bytes, 0, cudaMemcpyHostToDevice, s));
  CUDA_CHECK(cudaMemsetAsync(d_over, 0, sizeof(unsigned int), s));
  biased_scale<<<(n + 255) / 256, 256, 0, s>>>(d_in, d_out, n);
  CUDA_CHECK_LAUNCH();
  unsigned int over = 0;
  CUDA_CHECK(cudaMemcpyFromSymbolAsync(&over, g_over, sizeof(over), 0, cudaMemcpyDeviceToHost, s));
  timer.stop();
  CUDA_CHECK(cudaStreamSynchronize(s));
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));

  // Read back the config and one slice of the bias table.
  Config back = {};
  CUDA_CHECK(cudaMemcpyFromSymbol(&back, c_cfg, sizeof(back)));
  float tail[8];
  CUDA_CHECK(cudaMemcpyFromSymbol(tail, g_bias, sizeof(tail), (kBias - 8) * sizeof(float),
                                  cudaMemcpyDeviceToHost));

  heldout::ErrTracker err;
  unsigned int want_over = 0;
  for (int i = 0; i < n; ++i) {
    float v = cfg.scale * in[i] + bias[i % kBias];
    if (v > cfg.threshold) ++want_over;
    err.add(out[i], v, 1e-5, 1.0);
  }
  for (int j = 0; j < 8; ++j) err.add(tail[j], bias[kBias - 8 + j], 0.0, 1.0);
  // Elements within rounding of the threshold may fall either way.
  const long diff = long(over) - long(want_over);
  const bool meta_ok = bias_bytes == sizeof(float) * kBias && back.period == kBias &&
                       back.scale == cfg.scale && diff >= -4 && diff <= 4;
  if (!meta_ok)
    std::fprintf(stderr, "bytes=%zu period=%d over=%u want=%u\n", bias_bytes, back.period, over, want_over);

  CUDA_CHECK(cudaStreamDestroy(s));
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  return heldout::report("symbol_access", err.ok() && meta_ok, err.max_rel, timer.ms());
}
