#include <cuda_runtime.h>
#include <curand.h>

#include <cstdio>

extern __device__ float scaled(float x);  // rdc_scale.cu

__global__ void apply(float* v, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = scaled(v[i]);
}

int main() {
  const int n = 4096;
  float* d = nullptr;
  cudaMalloc(&d, n * sizeof(float));
  curandGenerator_t gen;
  curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT);
  curandSetPseudoRandomGeneratorSeed(gen, 42ULL);
  curandGenerateUniform(gen, d, n);  // in (0, 1]
  apply<<<(n + 255) / 256, 256>>>(d, n);
  static float h[n];
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  bool in_range = true;
  double sum = 0;
  for (float x : h) {
    in_range = in_range && x > 1.0f && x <= 3.0f;
    sum += x;
  }
  const bool ok = in_range && sum > 1.9 * n && sum < 2.1 * n;  // mean 2
  std::printf("rdc_rand: %s\n", ok ? "PASS" : "FAIL");
  curandDestroyGenerator(gen);
  cudaFree(d);
  return ok ? 0 : 1;
}
