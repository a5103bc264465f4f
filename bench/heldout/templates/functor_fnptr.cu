// Two ways of passing device code around: functor objects given to a kernel
// template by value, and __device__ function pointers, both fetched to the
// host with cudaMemcpyFromSymbol and looked up from a __device__ table.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "../include/heldout.cuh"

struct Saxpy {
  float a, b;
  __host__ __device__ float operator()(float x) const { return a * x + b; }
};

struct Clamp {
  float lo, hi;
  __host__ __device__ float operator()(float x) const { return fminf(fmaxf(x, lo), hi); }
};

template <typename F>
struct Compose {
  F f;
  Clamp g;
  __host__ __device__ float operator()(float x) const { return g(f(x)); }
};

template <typename F>
__global__ void transform(const float* __restrict__ in, float* __restrict__ out, int n, F op) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = op(in[i]);
}

typedef float (*unary_fn)(float);

__device__ float cube(float x) { return x * x * x; }
__device__ float soft_sign(float x) { return x / (1.0f + fabsf(x)); }
__device__ float gauss(float x) { return __expf(-x * x); }

__device__ unary_fn d_cube_ptr = cube;
__device__ unary_fn d_table[3] = {cube, soft_sign, gauss};

__global__ void apply_ptr(const float* __restrict__ in, float* __restrict__ out, int n, unary_fn fn) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = fn(in[i]);
}

__global__ void apply_table(const float* __restrict__ in, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = d_table[i % 3](in[i]);
}

int main() {
  const int n = 1 << 19;
  std::vector<float> in(n);
  heldout::Lcg rng(303);
  for (auto& v : in) v = rng.uniform(-3.0f, 3.0f);
  float *d_in, *d_out[4];
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  for (auto& p : d_out) CUDA_CHECK(cudaMalloc(&p, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  // The host can hold a device function's address only by copying it from a symbol.
  unary_fn h_cube = nullptr;
  CUDA_CHECK(cudaMemcpyFromSymbol(&h_cube, d_cube_ptr, sizeof(unary_fn)));

  const Saxpy sx{2.0f, -0.5f};
  const Compose<Saxpy> comp{sx, Clamp{-1.0f, 1.0f}};
  const int threads = 256, blocks = (n + threads - 1) / threads;
  heldout::GpuTimer timer;
  timer.start();
  transform<<<blocks, threads>>>(d_in, d_out[0], n, sx);
  CUDA_CHECK_LAUNCH();
  transform<Compose<Saxpy>><<<blocks, threads>>>(d_in, d_out[1], n, comp);
  CUDA_CHECK_LAUNCH();
  apply_ptr<<<blocks, threads>>>(d_in, d_out[2], n, h_cube);
  CUDA_CHECK_LAUNCH();
  apply_table<<<blocks, threads>>>(d_in, d_out[3], n);
  CUDA_CHECK_LAUNCH();
  timer.stop();

  std::vector<std::vector<float>> out(4, std::vector<float>(n));
  for (int k = 0; k < 4; ++k)
    CUDA_CHECK(cudaMemcpy(out[k].data(), d_out[k], n * sizeof(float), cudaMemcpyDeviceToHost));

  heldout::ErrTracker err;
  for (int i = 0; i < n; ++i) {
    const double x = in[i];
    err.add(out[0][i], sx(in[i]), 2e-6, 1.0);
    err.add(out[1][i], comp(in[i]), 2e-6, 1.0);
    err.add(out[2][i], x * x * x, 1e-5, 1.0);
    const double t = i % 3 == 0 ? x * x * x : (i % 3 == 1 ? x / (1.0 + std::fabs(x)) : std::exp(-x * x));
    err.add(out[3][i], t, 1e-5, 1.0);
  }

  CUDA_CHECK(cudaFree(d_in));
  for (auto& p : d_out) CUDA_CHECK(cudaFree(p));
  return heldout::report("functor_fnptr", err.ok(), err.max_rel, timer.ms());
}
