// Streams, events and asynchronous copies (cudaStreamCreate, cudaEventCreate/Record/
// ElapsedTime, cudaMemcpyAsync, a launch on a stream with dynamic shared memory) translate to
// HIP that compiles for both targets.
// REQUIRES: hip-compilers
// RUN: rm -rf %t && %gpuport translate --hip-version 5.2 --check -o %t %s > %t.log 2>&1
// The default target, HIP 6.4, for gfx1100 (HIP 6.4 has no NVIDIA platform headers here):
// RUN: rm -rf %t.64 && %gpuport translate --check --check-targets amd -o %t.64 %s 2>&1 | FileCheck --check-prefix=HIP64 %s
// HIP64: check gfx1100: compiles
// RUN: FileCheck --check-prefix=REPORT %s < %t.log
// RUN: grep -v -e CHECK -e RUN -e REPORT %t/events-streams.cu | FileCheck %s
#include <cuda_runtime.h>

__global__ void scale(float* d, float s, int n) {
  extern __shared__ float tmp[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { tmp[threadIdx.x] = d[i] * s; d[i] = tmp[threadIdx.x]; }
}

float timed(float* host, int n) {
  float* dev;
  cudaStream_t s;
  cudaEvent_t start, stop;
  cudaStreamCreate(&s);
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  // CHECK: hipEventCreate(&stop);
  cudaMalloc(&dev, n * sizeof(float));
  cudaEventRecord(start, s);
  // CHECK: hipEventRecord(start, s);
  cudaMemcpyAsync(dev, host, n * sizeof(float), cudaMemcpyHostToDevice, s);
  // CHECK-NEXT: hipMemcpyAsync(dev, host, n * sizeof(float), hipMemcpyHostToDevice, s);
  scale<<<(n + 127) / 128, 128, 128 * sizeof(float), s>>>(dev, 2.0f, n);
  cudaMemcpyAsync(host, dev, n * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaEventRecord(stop, s);
  cudaEventSynchronize(stop);
  float ms = 0.0f;
  cudaEventElapsedTime(&ms, start, stop);
  // CHECK: hipEventElapsedTime(&ms, start, stop);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaStreamDestroy(s);
  cudaFree(dev);
  return ms;
}
// REPORT: events-streams.cu: check gfx1100: compiles
// REPORT: events-streams.cu: check nvidia: compiles
// REPORT: 0 errors, 0 warnings
