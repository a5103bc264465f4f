// Page-locking existing host allocations with cudaHostRegister so that
// cudaMemcpyAsync on them is truly asynchronous; two streams ping-pong halves
// of the data. Registered memory is checked with cudaPointerGetAttributes.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../include/heldout.cuh"

__global__ void clamp_scale(const int* __restrict__ in, float* __restrict__ out, int n, int lo,
                            int hi, float scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = scale * static_cast<float>(min(max(in[i], lo), hi));
}

int main() {
  const int n = 1 << 20;
  const int parts = 2;
  const int part = n / parts;
  const int lo = -1000, hi = 1000;
  const float scale = 0.001f;

  // Ordinary page-aligned host buffers, as a library might hand us.
  void* raw_in = nullptr;
  void* raw_out = nullptr;
  if (posix_memalign(&raw_in, 4096, n * sizeof(int)) != 0 ||
      posix_memalign(&raw_out, 4096, n * sizeof(float)) != 0)
    return heldout::report("host_register", false, 0.0, 0.0);
  int* h_in = static_cast<int*>(raw_in);
  float* h_out = static_cast<float*>(raw_out);
  heldout::Lcg rng(77);
  for (int i = 0; i < n; ++i) h_in[i] = static_cast<int>(rng.next() % 4001) - 2000;

  CUDA_CHECK(cudaHostRegister(h_in, n * sizeof(int), cudaHostRegisterDefault));
  CUDA_CHECK(cudaHostRegister(h_out, n * sizeof(float), cudaHostRegisterPortable));
  cudaPointerAttributes attr;
  CUDA_CHECK(cudaPointerGetAttributes(&attr, h_in));
  const bool registered = attr.type == cudaMemoryTypeHost;

  int* d_in;
  float* d_out;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));

  cudaStream_t streams[parts];
  for (auto& s : streams) CUDA_CHECK(cudaStreamCreate(&s));
  heldout::GpuTimer timer;
  timer.start();
  for (int p = 0; p < parts; ++p) {
    const size_t off = size_t(p) * part;
    CUDA_CHECK(cudaMemcpyAsync(d_in + off, h_in + off, part * sizeof(int), cudaMemcpyHostToDevice,
                               streams[p]));
    clamp_scale<<<(part + 511) / 512, 512, 0, streams[p]>>>(d_in + off, d_out + off, part, lo, hi,
                                                            scale);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpyAsync(h_out + off, d_out + off, part * sizeof(float),
                               cudaMemcpyDeviceToHost, streams[p]));
  }
  for (auto& s : streams) CUDA_CHECK(cudaStreamSynchronize(s));
  timer.stop();

  heldout::ErrTracker err;
  for (int i = 0; i < n; ++i) {
    int c = h_in[i] < lo ? lo : (h_in[i] > hi ? hi : h_in[i]);
    err.add(h_out[i], scale * static_cast<float>(c), 1e-6, 1e-3);
  }

  for (auto& s : streams) CUDA_CHECK(cudaStreamDestroy(s));
  CUDA_CHECK(cudaHostUnregister(h_in));
  CUDA_CHECK(cudaHostUnregister(h_out));
  std::free(h_in);
  std::free(h_out);
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  return heldout::report("host_register", err.ok() && registered, err.max_rel, timer.ms());
}
