// Matrix-vector product with bfloat16 weights and activations: a warp per
// row loads __nv_bfloat162 pairs, widens them with __bfloat1622float2 and
// accumulates in float; a second kernel applies a bf16 gate with __hmul2.
// Results are rounded back to bf16 with __float2bfloat16_rn.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "../include/heldout.cuh"

__global__ void gemv_bf16(const __nv_bfloat16* __restrict__ w, const __nv_bfloat16* __restrict__ x,
                          __nv_bfloat16* __restrict__ y, float* __restrict__ y_f32, int rows, int cols) {
  const int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  if (row >= rows) return;
  const __nv_bfloat162* w2 = reinterpret_cast<const __nv_bfloat162*>(w + size_t(row) * cols);
  const __nv_bfloat162* x2 = reinterpret_cast<const __nv_bfloat162*>(x);
  float acc = 0.0f;
  for (int c = lane; c < cols / 2; c += 32) {
    float2 wf = __bfloat1622float2(w2[c]);
    float2 xf = __bfloat1622float2(x2[c]);
    acc = fmaf(wf.x, xf.x, acc);
    acc = fmaf(wf.y, xf.y, acc);
  }
  for (int off = 16; off > 0; off >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, off);
  if (lane == 0) {
    y[row] = __float2bfloat16_rn(acc);
    y_f32[row] = acc;
  }
}

__global__ void gate_bf16(const __nv_bfloat162* __restrict__ a, const __nv_bfloat162* __restrict__ g,
                          __nv_bfloat162* __restrict__ out, int pairs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < pairs) out[i] = __hmul2(a[i], g[i]);
}

int main() {
  const int rows = 4096, cols = 1024;
  std::vector<__nv_bfloat16> w(size_t(rows) * cols), x(cols);
  std::vector<float> wf(w.size()), xf(cols), gf(rows);
  heldout::Lcg rng(1616);
  for (size_t i = 0; i < w.size(); ++i) {
    w[i] = __float2bfloat16(rng.uniform(-0.1f, 0.1f));
    wf[i] = __bfloat162float(w[i]);
  }
  for (int c = 0; c < cols; ++c) {
    x[c] = __float2bfloat16(rng.uniform(-1.0f, 1.0f));
    xf[c] = __bfloat162float(x[c]);
  }
  std::vector<__nv_bfloat16> g(rows);
  for (int r = 0; r < rows; ++r) {
    g[r] = __float2bfloat16(rng.uniform(0.0f, 2.0f));
    gf[r] = __bfloat162float(g[r]);
  }

  __nv_bfloat16 *d_w, *d_x, *d_y, *d_g, *d_out;
  float* d_yf;
  CUDA_CHECK(cudaMalloc(&d_w, w.size() * sizeof(__nv_bfloat16)));
  CUDA_CHECK(cudaMalloc(&d_x, cols * sizeof(__nv_bfloat16)));
  CUDA_CHECK(cudaMalloc(&d_y, rows * sizeof(__nv_bfloat16)));
  CUDA_CHECK(cudaMalloc(&d_g, rows * sizeof(__nv_bfloat16)));
  CUDA_CHECK(cudaMalloc(&d_out, rows * sizeof(__nv_bfloat16)));
  CUDA_CHECK(cudaMalloc(&d_yf, rows * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_w, w.data(), w.size() * sizeof(__nv_bfloat16), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_x, x.data(), cols * sizeof(__nv_bfloat16), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_g, g.data(), rows * sizeof(__nv_bfloat16), cudaMemcpyHostToDevice));

  heldout::GpuTimer timer;
  timer.start();
  gemv_bf16<<<rows / 8, 256>>>(d_w, d_x, d_y, d_yf, rows, cols);
  CUDA_CHECK_LAUNCH();
  gate_bf16<<<(rows / 2 + 255) / 256, 256>>>(reinterpret_cast<const __nv_bfloat162*>(d_y),
                                             reinterpret_cast<const __nv_bfloat162*>(d_g),
                                             reinterpret_cast<__nv_bfloat162*>(d_out), rows / 2);
  CUDA_CHECK_LAUNCH();
  timer.stop();
  std::vector<__nv_bfloat16> y(rows), out(rows);
  std::vector<float> yf(rows);
  CUDA_CHECK(cudaMemcpy(y.data(), d_y, rows * sizeof(__nv_bfloat16), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, rows * sizeof(__nv_bfloat16), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(yf.data(), d_yf, rows * sizeof(float), cudaMemcpyDeviceToHost));

  heldout::ErrTracker err;
  for (int r = 0; r < rows; ++r) {
    double ref = 0.0;
    for (int c = 0; c < cols; ++c) ref += double(wf[size_t(r) * cols + c]) * xf[c];
    err.add(yf[r], ref, 1e-4, 0.1);                          // float accumulation
    err.add(__bfloat162float(y[r]), ref, 8e-3, 0.1);         // bf16: 8-bit significand
    const double gated = double(__bfloat162float(y[r])) * gf[r];
    err.add(__bfloat162float(out[r]), gated, 8e-3, 0.1);
  }

  CUDA_CHECK(cudaFree(d_w));
  CUDA_CHECK(cudaFree(d_x));
  CUDA_CHECK(cudaFree(d_y));
  CUDA_CHECK(cudaFree(d_g));
  CUDA_CHECK(cudaFree(d_out));
  CUDA_CHECK(cudaFree(d_yf));
  return heldout::report("bf16_gemv", err.ok(), err.max_rel, timer.ms());
}
