// Unified memory with explicit prefetching: data is initialised on the host,
// prefetched to the GPU before the kernels and back to the CPU before the
// check. Prefetch is skipped where the device lacks concurrent managed access.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>

#include "../include/heldout.cuh"

// 1D heat-equation step with fixed boundary values.
__global__ void heat_step(const float* __restrict__ u, float* __restrict__ v, int n, float k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0 || i == n - 1) {
    v[i] = u[i];
  } else if (i < n) {
    v[i] = u[i] + k * (u[i - 1] - 2.0f * u[i] + u[i + 1]);
  }
}

int main() {
  const int n = 1 << 18;
  const int steps = 50;
  const float k = 0.2f;
  int dev = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  int concurrent = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess, dev));

  float *u, *v;
  CUDA_CHECK(cudaMallocManaged(&u, n * sizeof(float)));
  CUDA_CHECK(cudaMallocManaged(&v, n * sizeof(float), cudaMemAttachGlobal));
  for (int i = 0; i < n; ++i) u[i] = std::sin(6.2831853f * i / n) + ((i / 1024) % 2 ? 0.5f : -0.5f);

  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreate(&s));
  heldout::GpuTimer timer(s);
  timer.start();
  if (concurrent) {
    CUDA_CHECK(cudaMemPrefetchAsync(u, n * sizeof(float), dev, s));
    CUDA_CHECK(cudaMemPrefetchAsync(v, n * sizeof(float), dev, s));
  }
  for (int t = 0; t < steps; ++t) {
    heat_step<<<(n + 255) / 256, 256, 0, s>>>(u, v, n, k);
    CUDA_CHECK_LAUNCH();
    float* tmp = u;
    u = v;
    v = tmp;
  }
  if (concurrent) CUDA_CHECK(cudaMemPrefetchAsync(u, n * sizeof(float), cudaCpuDeviceId, s));
  timer.stop();
  CUDA_CHECK(cudaStreamSynchronize(s));

  // CPU reference on separate host buffers.
  float* a = new float[n];
  float* b = new float[n];
  for (int i = 0; i < n; ++i) a[i] = std::sin(6.2831853f * i / n) + ((i / 1024) % 2 ? 0.5f : -0.5f);
  for (int t = 0; t < steps; ++t) {
    b[0] = a[0];
    b[n - 1] = a[n - 1];
    for (int i = 1; i < n - 1; ++i) b[i] = a[i] + k * (a[i - 1] - 2.0f * a[i] + a[i + 1]);
    float* tmp = a;
    a = b;
    b = tmp;
  }
  heldout::ErrTracker err;
  for (int i = 0; i < n; ++i) err.add(u[i], a[i], 1e-4, 1.0);

  delete[] a;
  delete[] b;
  CUDA_CHECK(cudaStreamDestroy(s));
  CUDA_CHECK(cudaFree(u));
  CUDA_CHECK(cudaFree(v));
  return heldout::report("managed_prefetch", err.ok(), err.max_rel, timer.ms());
}
