// A failed device assert (__assertfail): the lifted kernel prints CUDA's message for the failing
// thread and aborts; the host sees the launch fail. Threads whose assert holds print nothing.
#include <cassert>
#include <cstdio>

__global__ void check(const int* values) {
  const int v = values[threadIdx.x];
  assert(v != 13);
}

int main() {
  int h[32];
  for (int i = 0; i < 32; ++i) h[i] = i == 5 ? 13 : 2 * i;
  int* d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  check<<<1, 32>>>(d);
  const cudaError_t e = cudaDeviceSynchronize();
  printf("launch %s\n", e == cudaSuccess ? "succeeded" : "failed");
  return 0;
}
