// One iteration of a relaxation step is captured from two streams (fork/join
// through events) into a CUDA graph, instantiated once and replayed. The
// captured work includes a memset, three kernels and a D2H copy.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "../include/heldout.cuh"

__global__ void half_of(const float* __restrict__ x, float* __restrict__ y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 0.5f * x[i];
}

__global__ void plus_one(const float* __restrict__ x, float* __restrict__ y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] + 1.0f;
}

__global__ void relax_and_sum(float* __restrict__ x, const float* __restrict__ a,
                              const float* __restrict__ b, int n, float* __restrict__ sum) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = 0.0f;
  if (i < n) {
    v = a[i] + 0.25f * b[i];
    x[i] = v;
  }
  s[threadIdx.x] = v;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(sum, s[0]);
}

int main() {
  const int n = 1 << 18;
  const int iters = 20;
  std::vector<float> h_x(n);
  heldout::Lcg rng(11);
  for (auto& v : h_x) v = rng.uniform(-4.0f, 4.0f);

  float *d_x, *d_a, *d_b, *d_sum, *h_sum;
  CUDA_CHECK(cudaMalloc(&d_x, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_a, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_b, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_sum, sizeof(float)));
  CUDA_CHECK(cudaMallocHost(&h_sum, iters * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_x, h_x.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  cudaStream_t s1, s2;
  CUDA_CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CUDA_CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  cudaEvent_t fork, join;
  CUDA_CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
  CUDA_CHECK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));

  const dim3 block(256), grid((n + 255) / 256);
  cudaGraph_t graph;
  CUDA_CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  cudaStreamCaptureStatus cap = cudaStreamCaptureStatusNone;
  CUDA_CHECK(cudaStreamIsCapturing(s1, &cap));
  const bool was_capturing = cap == cudaStreamCaptureStatusActive;
  CUDA_CHECK(cudaMemsetAsync(d_sum, 0, sizeof(float), s1));
  CUDA_CHECK(cudaEventRecord(fork, s1));
  CUDA_CHECK(cudaStreamWaitEvent(s2, fork, 0));
  half_of<<<grid, block, 0, s1>>>(d_x, d_a, n);
  plus_one<<<grid, block, 0, s2>>>(d_x, d_b, n);
  CUDA_CHECK(cudaEventRecord(join, s2));
  CUDA_CHECK(cudaStreamWaitEvent(s1, join, 0));
  relax_and_sum<<<grid, block, 0, s1>>>(d_x, d_a, d_b, n, d_sum);
  // Each replay copies the new sum into the pinned slot.
  CUDA_CHECK(cudaMemcpyAsync(h_sum, d_sum, sizeof(float), cudaMemcpyDeviceToHost, s1));
  CUDA_CHECK(cudaStreamEndCapture(s1, &graph));

  size_t num_nodes = 0;
  CUDA_CHECK(cudaGraphGetNodes(graph, nullptr, &num_nodes));
  cudaGraphExec_t exec;
  cudaGraphNode_t error_node = nullptr;
  char log[512] = {0};
  CUDA_CHECK(cudaGraphInstantiate(&exec, graph, &error_node, log, sizeof(log)));

  std::vector<float> sums(iters);
  heldout::GpuTimer timer(s1);
  timer.start();
  for (int it = 0; it < iters; ++it) {
    CUDA_CHECK(cudaGraphLaunch(exec, s1));
    CUDA_CHECK(cudaStreamSynchronize(s1));
    sums[it] = h_sum[0];
  }
  timer.stop();
  CUDA_CHECK(cudaMemcpy(h_x.data(), d_x, n * sizeof(float), cudaMemcpyDeviceToHost));

  // CPU reference: x <- 0.5x + 0.25(x+1), iterated.
  heldout::ErrTracker err;
  std::vector<double> ref(n);
  heldout::Lcg rng2(11);
  for (auto& v : ref) v = rng2.uniform(-4.0f, 4.0f);
  for (int it = 0; it < iters; ++it) {
    double total = 0.0;
    for (auto& v : ref) {
      v = 0.5 * v + 0.25 * (v + 1.0);
      total += v;
    }
    err.add(sums[it], total, 1e-4, 100.0);
  }
  for (int i = 0; i < n; ++i) err.add(h_x[i], ref[i], 1e-5, 1.0);
  const bool graph_ok = was_capturing && num_nodes == 5;
  if (!graph_ok) std::fprintf(stderr, "capturing=%d nodes=%zu\n", int(was_capturing), num_nodes);

  CUDA_CHECK(cudaGraphExecDestroy(exec));
  CUDA_CHECK(cudaGraphDestroy(graph));
  CUDA_CHECK(cudaEventDestroy(fork));
  CUDA_CHECK(cudaEventDestroy(join));
  CUDA_CHECK(cudaStreamDestroy(s1));
  CUDA_CHECK(cudaStreamDestroy(s2));
  CUDA_CHECK(cudaFree(d_x));
  CUDA_CHECK(cudaFree(d_a));
  CUDA_CHECK(cudaFree(d_b));
  CUDA_CHECK(cudaFree(d_sum));
  CUDA_CHECK(cudaFreeHost(h_sum));
  return heldout::report("graph_capture", err.ok() && graph_ok, err.max_rel, timer.ms());
}
