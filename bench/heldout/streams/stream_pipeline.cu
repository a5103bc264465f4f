// Chunked copy/compute pipeline over several streams. Each chunk goes
// H2D -> scale kernel -> D2H in its own stream; a second "reduce" stream waits
// on per-chunk events before summing each processed chunk.
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "../include/heldout.cuh"

constexpr int kStreams = 4;

__global__ void saxpb(const float* __restrict__ in, float* __restrict__ out, int n, float a,
                      float b) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    out[i] = a * in[i] + b;
}

// One block per chunk: block-wide tree reduction in shared memory.
__global__ void chunk_sum(const float* __restrict__ data, int n, float* __restrict__ result) {
  __shared__ float partial[256];
  float acc = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) acc += data[i];
  partial[threadIdx.x] = acc;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) *result = partial[0];
}

int main() {
  const int n = 1 << 20;
  const int chunks = 16;
  const int chunk = n / chunks;
  const float a = 1.5f, b = -0.25f;

  float *h_in = nullptr, *h_out = nullptr;
  CUDA_CHECK(cudaMallocHost(&h_in, n * sizeof(float)));
  CUDA_CHECK(cudaMallocHost(&h_out, n * sizeof(float)));
  heldout::Lcg rng(7);
  for (int i = 0; i < n; ++i) h_in[i] = rng.uniform(-1.0f, 1.0f);

  float *d_in, *d_out, *d_sums;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_sums, chunks * sizeof(float)));

  cudaStream_t streams[kStreams], reducer;
  for (auto& s : streams) CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CUDA_CHECK(cudaStreamCreateWithFlags(&reducer, cudaStreamNonBlocking));
  std::vector<cudaEvent_t> done(chunks);
  for (auto& e : done) CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));

  cudaEvent_t t0, t1;
  CUDA_CHECK(cudaEventCreate(&t0));
  CUDA_CHECK(cudaEventCreate(&t1));

  CUDA_CHECK(cudaMemsetAsync(d_sums, 0, chunks * sizeof(float), reducer));
  CUDA_CHECK(cudaEventRecord(t0, reducer));
  for (int c = 0; c < chunks; ++c) {
    cudaStream_t s = streams[c % kStreams];
    // Streams are non-blocking, so make the worker wait for the start marker.
    CUDA_CHECK(cudaStreamWaitEvent(s, t0, 0));
    const size_t off = size_t(c) * chunk;
    CUDA_CHECK(cudaMemcpyAsync(d_in + off, h_in + off, chunk * sizeof(float),
                               cudaMemcpyHostToDevice, s));
    saxpb<<<64, 256, 0, s>>>(d_in + off, d_out + off, chunk, a, b);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaEventRecord(done[c], s));
    CUDA_CHECK(cudaMemcpyAsync(h_out + off, d_out + off, chunk * sizeof(float),
                               cudaMemcpyDeviceToHost, s));
    CUDA_CHECK(cudaStreamWaitEvent(reducer, done[c], 0));
    chunk_sum<<<1, 256, 0, reducer>>>(d_out + off, chunk, d_sums + c);
    CUDA_CHECK_LAUNCH();
  }
  // Join every worker into the reducer before the stop marker.
  for (auto& s : streams) {
    cudaEvent_t join;
    CUDA_CHECK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
    CUDA_CHECK(cudaEventRecord(join, s));
    CUDA_CHECK(cudaStreamWaitEvent(reducer, join, 0));
    CUDA_CHECK(cudaEventDestroy(join));
  }
  CUDA_CHECK(cudaEventRecord(t1, reducer));
  CUDA_CHECK(cudaEventSynchronize(t1));
  float gpu_ms = 0.0f;
  CUDA_CHECK(cudaEventElapsedTime(&gpu_ms, t0, t1));
  CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<float> sums(chunks);
  CUDA_CHECK(cudaMemcpy(sums.data(), d_sums, chunks * sizeof(float), cudaMemcpyDeviceToHost));

  heldout::ErrTracker err;
  for (int i = 0; i < n; ++i) err.add(h_out[i], a * h_in[i] + b, 1e-5, 1.0);
  for (int c = 0; c < chunks; ++c) {
    double ref = 0.0;
    for (int i = 0; i < chunk; ++i) ref += double(a) * h_in[size_t(c) * chunk + i] + b;
    // float accumulation over 65536 terms: allow loose absolute slack.
    err.add(sums[c], ref, 1e-3, 10.0);
  }

  for (auto& e : done) CUDA_CHECK(cudaEventDestroy(e));
  for (auto& s : streams) CUDA_CHECK(cudaStreamDestroy(s));
  CUDA_CHECK(cudaStreamDestroy(reducer));
  CUDA_CHECK(cudaEventDestroy(t0));
  CUDA_CHECK(cudaEventDestroy(t1));
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  CUDA_CHECK(cudaFree(d_sums));
  CUDA_CHECK(cudaFreeHost(h_in));
  CUDA_CHECK(cudaFreeHost(h_out));
  return heldout::report("stream_pipeline", err.ok(), err.max_rel, gpu_ms);
}
