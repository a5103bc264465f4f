#include <cuda_runtime.h>

#include <utility>

#include "diffusion.cuh"
#include "stencil.h"

__global__ void heat_step(const float* in, float* out, int n, float alpha) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= n || y >= n) return;
  const int i = y * n + x;
  if (x == 0 || y == 0 || x == n - 1 || y == n - 1) {
    out[i] = 0.0f;
    return;
  }
  out[i] = diffuse(in[i], in[i - n], in[i + n], in[i + 1], in[i - 1], alpha);
}

float* heat_run(float* a, float* b, int n, float alpha, int steps) {
  const dim3 block(16, 16);
  const dim3 grid((n + block.x - 1) / block.x, (n + block.y - 1) / block.y);
  for (int s = 0; s < steps; ++s) {
    heat_step<<<grid, block>>>(a, b, n, alpha);
    std::swap(a, b);
  }
  return cudaDeviceSynchronize() == cudaSuccess ? a : nullptr;
}

void heat_reference(std::vector<float>& u, int n, float alpha, int steps) {
  std::vector<float> v(u.size());
  for (int s = 0; s < steps; ++s) {
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        const int i = y * n + x;
        v[i] = (x == 0 || y == 0 || x == n - 1 || y == n - 1)
                   ? 0.0f
                   : u[i] + alpha * (u[i - n] + u[i + n] + u[i + 1] + u[i - 1] - 4.0f * u[i]);
      }
    u.swap(v);
  }
}
