// A graph built node by node: H2D copy and memset feed an axpy kernel, then a
// second kernel, a D2H copy and a host node. After one replay the axpy
// node's scalar is changed in the executable graph and it is replayed again.
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "../include/heldout.cuh"

__global__ void axpy(const float* __restrict__ x, float* __restrict__ y, float alpha, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = alpha * x[i] + y[i];
}

__global__ void quad(float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = y[i] * y[i] + y[i];
}

static void CUDART_CB count_replay(void* user) { ++*static_cast<int*>(user); }

int main() {
  const int n = 300000;
  float *h_x, *h_y;
  CUDA_CHECK(cudaMallocHost(&h_x, n * sizeof(float)));
  CUDA_CHECK(cudaMallocHost(&h_y, n * sizeof(float)));
  heldout::Lcg rng(5);
  for (int i = 0; i < n; ++i) h_x[i] = rng.uniform(-1.0f, 1.0f);

  float *d_x, *d_y;
  CUDA_CHECK(cudaMalloc(&d_x, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_y, n * sizeof(float)));

  cudaGraph_t graph;
  CUDA_CHECK(cudaGraphCreate(&graph, 0));

  cudaGraphNode_t copy_in, clear, k_axpy, k_quad, copy_out, host;
  CUDA_CHECK(cudaGraphAddMemcpyNode1D(&copy_in, graph, nullptr, 0, d_x, h_x, n * sizeof(float),
                                      cudaMemcpyHostToDevice));

  cudaMemsetParams ms = {};
  ms.dst = d_y;
  ms.value = 0;
  ms.elementSize = sizeof(float);
  ms.width = n;
  ms.height = 1;
  ms.pitch = 0;
  CUDA_CHECK(cudaGraphAddMemsetNode(&clear, graph, nullptr, 0, &ms));

  float alpha = 2.0f;
  int count = n;
  void* axpy_args[] = {&d_x, &d_y, &alpha, &count};
  cudaKernelNodeParams kp = {};
  kp.func = reinterpret_cast<void*>(axpy);
  kp.gridDim = dim3((n + 255) / 256);
  kp.blockDim = dim3(256);
  kp.sharedMemBytes = 0;
  kp.kernelParams = axpy_args;
  kp.extra = nullptr;
  cudaGraphNode_t axpy_deps[] = {copy_in, clear};
  CUDA_CHECK(cudaGraphAddKernelNode(&k_axpy, graph, axpy_deps, 2, &kp));

  void* quad_args[] = {&d_y, &count};
  cudaKernelNodeParams kq = kp;
  kq.func = reinterpret_cast<void*>(quad);
  kq.kernelParams = quad_args;
  CUDA_CHECK(cudaGraphAddKernelNode(&k_quad, graph, &k_axpy, 1, &kq));

  CUDA_CHECK(cudaGraphAddMemcpyNode1D(&copy_out, graph, &k_quad, 1, h_y, d_y, n * sizeof(float),
                                      cudaMemcpyDeviceToHost));

  int replays = 0;
  cudaHostNodeParams hp = {};
  hp.fn = count_replay;
  hp.userData = &replays;
  CUDA_CHECK(cudaGraphAddHostNode(&host, graph, &copy_out, 1, &hp));

  size_t edges = 0;
  CUDA_CHECK(cudaGraphGetEdges(graph, nullptr, nullptr, &edges));

  cudaGraphExec_t exec;
  CUDA_CHECK(cudaGraphInstantiateWithFlags(&exec, graph, 0));
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreate(&s));

  heldout::ErrTracker err;
  heldout::GpuTimer timer(s);
  const float alphas[2] = {2.0f, -3.0f};
  for (int r = 0; r < 2; ++r) {
    if (r > 0) {
      alpha = alphas[r];  // kernelParams are copied when set, so this is read now
      CUDA_CHECK(cudaGraphExecKernelNodeSetParams(exec, k_axpy, &kp));
    }
    timer.start();
    CUDA_CHECK(cudaGraphLaunch(exec, s));
    timer.stop();
    CUDA_CHECK(cudaStreamSynchronize(s));
    for (int i = 0; i < n; ++i) {
      double y = double(alphas[r]) * h_x[i];
      err.add(h_y[i], y * y + y, 1e-5, 1.0);
    }
  }
  const bool graph_ok = edges == 5 && replays == 2;
  if (!graph_ok) std::fprintf(stderr, "edges=%zu replays=%d\n", edges, replays);

  CUDA_CHECK(cudaStreamDestroy(s));
  CUDA_CHECK(cudaGraphExecDestroy(exec));
  CUDA_CHECK(cudaGraphDestroy(graph));
  CUDA_CHECK(cudaFree(d_x));
  CUDA_CHECK(cudaFree(d_y));
  CUDA_CHECK(cudaFreeHost(h_x));
  CUDA_CHECK(cudaFreeHost(h_y));
  return heldout::report("graph_explicit", err.ok() && graph_ok, err.max_rel, timer.ms());
}
