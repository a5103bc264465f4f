// 1D convolution with the filter taps in __constant__ memory (uploaded with
// cudaMemcpyToSymbol) and the input tile plus halo staged in shared memory.
// Two filters are run back to back by re-uploading the taps.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "../include/heldout.cuh"

#define RADIUS 8
#define TILE 256

__constant__ float c_taps[2 * RADIUS + 1];

__global__ void conv1d(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float tile[TILE + 2 * RADIUS];
  const int base = blockIdx.x * TILE;
  for (int j = threadIdx.x; j < TILE + 2 * RADIUS; j += blockDim.x) {
    int g = base + j - RADIUS;
    tile[j] = (g >= 0 && g < n) ? in[g] : 0.0f;
  }
  __syncthreads();
  const int i = base + threadIdx.x;
  if (i >= n) return;
  float acc = 0.0f;
#pragma unroll
  for (int k = -RADIUS; k <= RADIUS; ++k) acc += c_taps[k + RADIUS] * tile[threadIdx.x + RADIUS + k];
  out[i] = acc;
}

static std::vector<float> gaussian_taps(float sigma) {
  std::vector<float> t(2 * RADIUS + 1);
  float sum = 0.0f;
  for (int k = -RADIUS; k <= RADIUS; ++k) sum += t[k + RADIUS] = std::exp(-0.5f * k * k / (sigma * sigma));
  for (auto& v : t) v /= sum;
  return t;
}

int main() {
  const int n = 1 << 20;
  std::vector<float> x(n), y1(n), y2(n);
  heldout::Lcg rng(1);
  for (auto& v : x) v = rng.uniform(-1.0f, 1.0f);

  float *d_x, *d_y;
  CUDA_CHECK(cudaMalloc(&d_x, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_y, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  const std::vector<float> smooth = gaussian_taps(3.0f);
  std::vector<float> deriv(2 * RADIUS + 1, 0.0f);  // central difference, placed at an offset
  deriv[RADIUS - 1] = -0.5f;
  deriv[RADIUS + 1] = 0.5f;

  heldout::GpuTimer timer;
  CUDA_CHECK(cudaMemcpyToSymbol(c_taps, smooth.data(), smooth.size() * sizeof(float)));
  timer.start();
  conv1d<<<(n + TILE - 1) / TILE, TILE>>>(d_x, d_y, n);
  CUDA_CHECK_LAUNCH();
  timer.stop();
  CUDA_CHECK(cudaMemcpy(y1.data(), d_y, n * sizeof(float), cudaMemcpyDeviceToHost));

  // Upload only the two non-zero taps after clearing, using offsets.
  std::vector<float> zeros(2 * RADIUS + 1, 0.0f);
  CUDA_CHECK(cudaMemcpyToSymbol(c_taps, zeros.data(), zeros.size() * sizeof(float)));
  CUDA_CHECK(cudaMemcpyToSymbol(c_taps, &deriv[RADIUS - 1], sizeof(float), (RADIUS - 1) * sizeof(float)));
  CUDA_CHECK(cudaMemcpyToSymbol(c_taps, &deriv[RADIUS + 1], sizeof(float), (RADIUS + 1) * sizeof(float),
                                cudaMemcpyHostToDevice));
  std::vector<float> readback(2 * RADIUS + 1);
  CUDA_CHECK(cudaMemcpyFromSymbol(readback.data(), c_taps, readback.size() * sizeof(float)));
  timer.start();
  conv1d<<<(n + TILE - 1) / TILE, TILE>>>(d_x, d_y, n);
  CUDA_CHECK_LAUNCH();
  timer.stop();
  CUDA_CHECK(cudaMemcpy(y2.data(), d_y, n * sizeof(float), cudaMemcpyDeviceToHost));

  heldout::ErrTracker err;
  for (int k = 0; k <= 2 * RADIUS; ++k) err.add(readback[k], deriv[k], 0.0, 1.0);
  for (int i = 0; i < n; ++i) {
    double s1 = 0.0, s2 = 0.0;
    for (int k = -RADIUS; k <= RADIUS; ++k) {
      int g = i + k;
      double v = (g >= 0 && g < n) ? x[g] : 0.0;
      s1 += smooth[k + RADIUS] * v;
      s2 += deriv[k + RADIUS] * v;
    }
    err.add(y1[i], s1, 1e-5, 1.0);
    err.add(y2[i], s2, 1e-5, 1.0);
  }

  CUDA_CHECK(cudaFree(d_x));
  CUDA_CHECK(cudaFree(d_y));
  return heldout::report("const_conv1d", err.ok(), err.max_rel, timer.ms());
}
