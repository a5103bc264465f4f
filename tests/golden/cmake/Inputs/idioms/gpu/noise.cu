#include <curand.h>

// The sum of `count` uniform numbers from cuRAND's default generator, seeded 42.
double uniform_sum(int count) {
  curandGenerator_t g;
  float* d = nullptr;
  cudaMalloc(&d, count * sizeof(float));
  curandCreateGenerator(&g, CURAND_RNG_PSEUDO_DEFAULT);
  curandSetPseudoRandomGeneratorSeed(g, 42);
  curandGenerateUniform(g, d, count);
  float* h = new float[count];
  cudaMemcpy(h, d, count * sizeof(float), cudaMemcpyDeviceToHost);
  double sum = 0;
  for (int i = 0; i < count; ++i) sum += h[i];
  delete[] h;
  curandDestroyGenerator(g);
  cudaFree(d);
  return sum;
}
