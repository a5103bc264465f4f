// Zero-copy access to mapped pinned host memory: the kernel reads its input
// and writes its output straight through device aliases of host buffers
// obtained with cudaHostGetDevicePointer; no cudaMemcpy is involved.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>

#include "../include/heldout.cuh"

__global__ void rms_normalize_rows(const float* __restrict__ in, float* __restrict__ out, int rows,
                                   int cols) {
  // One warp per row.
  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  if (row >= rows) return;
  const float* r = in + size_t(row) * cols;
  float ss = 0.0f;
  for (int c = lane; c < cols; c += 32) ss += r[c] * r[c];
  for (int off = 16; off > 0; off >>= 1) ss += __shfl_xor_sync(0xffffffffu, ss, off);
  float inv = rsqrtf(ss / cols + 1e-6f);
  for (int c = lane; c < cols; c += 32) out[size_t(row) * cols + c] = r[c] * inv;
}

int main() {
  int dev = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
  if (!prop.canMapHostMemory) {
    std::fprintf(stderr, "device cannot map host memory\n");
    return heldout::report("zero_copy", false, 0.0, 0.0);
  }
  CUDA_CHECK(cudaSetDeviceFlags(cudaDeviceMapHost));

  const int rows = 2048, cols = 192;
  const size_t count = size_t(rows) * cols;
  float *h_in = nullptr, *h_out = nullptr;
  // Input is only written by the host and read once by the GPU: write-combined.
  CUDA_CHECK(cudaHostAlloc(&h_in, count * sizeof(float), cudaHostAllocMapped | cudaHostAllocWriteCombined));
  CUDA_CHECK(cudaHostAlloc(&h_out, count * sizeof(float), cudaHostAllocMapped));
  unsigned int flags = 0;
  CUDA_CHECK(cudaHostGetFlags(&flags, h_in));
  const bool flags_ok = (flags & cudaHostAllocMapped) && (flags & cudaHostAllocWriteCombined);

  heldout::Lcg rng(2024);
  float* staging = new float[count];
  for (size_t i = 0; i < count; ++i) staging[i] = rng.uniform(-2.0f, 2.0f);
  for (size_t i = 0; i < count; ++i) h_in[i] = staging[i];

  float *d_in = nullptr, *d_out = nullptr;
  CUDA_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&d_in), h_in, 0));
  CUDA_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&d_out), h_out, 0));

  heldout::GpuTimer timer;
  timer.start();
  const int warps_per_block = 8;
  rms_normalize_rows<<<(rows + warps_per_block - 1) / warps_per_block, warps_per_block * 32>>>(
      d_in, d_out, rows, cols);
  CUDA_CHECK_LAUNCH();
  timer.stop();
  CUDA_CHECK(cudaDeviceSynchronize());

  heldout::ErrTracker err;
  for (int r = 0; r < rows; ++r) {
    double ss = 0.0;
    for (int c = 0; c < cols; ++c) ss += double(staging[size_t(r) * cols + c]) * staging[size_t(r) * cols + c];
    double inv = 1.0 / std::sqrt(ss / cols + 1e-6);
    for (int c = 0; c < cols; ++c)
      err.add(h_out[size_t(r) * cols + c], staging[size_t(r) * cols + c] * inv, 1e-5, 1.0);
  }

  delete[] staging;
  CUDA_CHECK(cudaFreeHost(h_in));
  CUDA_CHECK(cudaFreeHost(h_out));
  return heldout::report("zero_copy", err.ok() && flags_ok, err.max_rel, timer.ms());
}
