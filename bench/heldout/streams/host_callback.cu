// Host callbacks in stream order: cudaLaunchHostFunc bumps a progress counter
// after each batch, and a host function between two kernels rewrites a pinned
// parameter block that the second kernel reads (zero-copy). A legacy
// cudaStreamAddCallback reports the final status.
#include <cuda_runtime.h>

#include <atomic>
#include <cstdio>
#include <vector>

#include "../include/heldout.cuh"

struct Progress {
  std::atomic<int> batches{0};
  std::atomic<int> order_errors{0};
};

struct BatchTag {
  Progress* progress;
  int index;
};

struct Params {
  float scale;
  float shift;
};

static void CUDART_CB on_batch_done(void* user) {
  auto* tag = static_cast<BatchTag*>(user);
  // Callbacks on one stream run in order; check that they do.
  int seen = tag->progress->batches.fetch_add(1);
  if (seen != tag->index) tag->progress->order_errors.fetch_add(1);
}

static void CUDART_CB update_params(void* user) {
  auto* p = static_cast<Params*>(user);
  p->scale *= 2.0f;
  p->shift += 1.0f;
}

static void CUDART_CB on_complete(cudaStream_t, cudaError_t status, void* user) {
  *static_cast<cudaError_t*>(user) = status;
}

__global__ void square_batch(const float* __restrict__ in, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * in[i];
}

__global__ void affine(float* data, int n, const Params* p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] * p->scale + p->shift;
}

int main() {
  CUDA_CHECK(cudaSetDeviceFlags(cudaDeviceMapHost));
  const int batches = 8;
  const int per = 1 << 16;
  const int n = batches * per;
  std::vector<float> h_in(n), h_out(n);
  heldout::Lcg rng(3);
  for (auto& v : h_in) v = rng.uniform(-3.0f, 3.0f);

  float *d_in, *d_out;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  Params* h_params = nullptr;
  CUDA_CHECK(cudaHostAlloc(&h_params, sizeof(Params), cudaHostAllocMapped));
  h_params->scale = 0.5f;
  h_params->shift = -1.0f;
  Params* d_params = nullptr;
  CUDA_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&d_params), h_params, 0));

  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreate(&s));
  Progress progress;
  std::vector<BatchTag> tags(batches);
  cudaError_t final_status = cudaErrorUnknown;

  heldout::GpuTimer timer(s);
  timer.start();
  CUDA_CHECK(cudaMemcpyAsync(d_in, h_in.data(), n * sizeof(float), cudaMemcpyHostToDevice, s));
  for (int b = 0; b < batches; ++b) {
    square_batch<<<per / 256, 256, 0, s>>>(d_in + size_t(b) * per, d_out + size_t(b) * per, per);
    CUDA_CHECK_LAUNCH();
    tags[b] = {&progress, b};
    CUDA_CHECK(cudaLaunchHostFunc(s, on_batch_done, &tags[b]));
  }
  // The host function runs after all squares and before the affine kernel.
  CUDA_CHECK(cudaLaunchHostFunc(s, update_params, h_params));
  affine<<<n / 256, 256, 0, s>>>(d_out, n, d_params);
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaStreamAddCallback(s, on_complete, &final_status, 0));
  CUDA_CHECK(cudaMemcpyAsync(h_out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost, s));
  timer.stop();
  CUDA_CHECK(cudaStreamSynchronize(s));

  heldout::ErrTracker err;
  const float scale = 1.0f, shift = 0.0f;  // 0.5*2, -1+1
  for (int i = 0; i < n; ++i) err.add(h_out[i], double(h_in[i]) * h_in[i] * scale + shift, 1e-5, 1.0);
  const bool cb_ok = progress.batches.load() == batches && progress.order_errors.load() == 0 &&
                     final_status == cudaSuccess;
  if (!cb_ok)
    std::fprintf(stderr, "batches=%d order_errors=%d status=%d\n", progress.batches.load(),
                 progress.order_errors.load(), int(final_status));

  CUDA_CHECK(cudaStreamDestroy(s));
  CUDA_CHECK(cudaFreeHost(h_params));
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  return heldout::report("host_callback", err.ok() && cb_ok, err.max_rel, timer.ms());
}
