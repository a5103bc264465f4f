// Random initial temperatures (cuRAND's host API), 50 steps on the GPU, compared with the host
// reference. Prints PASS or FAIL.
#include <cuda_runtime.h>
#include <curand.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "stencil.h"

#define CHECK(call)                                                              \
  do {                                                                           \
    if ((call) != 0) {                                                           \
      std::fprintf(stderr, "%s:%d: %s failed\n", __FILE__, __LINE__, #call);     \
      return 2;                                                                  \
    }                                                                            \
  } while (0)

int main() {
  const int n = 64, steps = 50;
  const float alpha = 0.2f;
  float *a, *b;
  CHECK(cudaMalloc(&a, n * n * sizeof(float)));
  CHECK(cudaMalloc(&b, n * n * sizeof(float)));
  curandGenerator_t gen;
  CHECK(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT));
  CHECK(curandSetPseudoRandomGeneratorSeed(gen, 1234ull));
  CHECK(curandGenerateUniform(gen, a, n * n));
  CHECK(curandDestroyGenerator(gen));
  std::vector<float> u(n * n), gpu(n * n);
  CHECK(cudaMemcpy(u.data(), a, u.size() * sizeof(float), cudaMemcpyDeviceToHost));
  float* result = heat_run(a, b, n, alpha, steps);
  if (result == nullptr) return 2;
  CHECK(cudaMemcpy(gpu.data(), result, gpu.size() * sizeof(float), cudaMemcpyDeviceToHost));
  heat_reference(u, n, alpha, steps);
  double worst = 0;
  for (int i = 0; i < n * n; ++i) worst = std::fmax(worst, std::fabs(gpu[i] - u[i]));
  std::printf("heat: %d steps on %dx%d, largest difference %.3g: %s\n", steps, n, n, worst, worst < 1e-4 ? "PASS" : "FAIL");
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  return worst < 1e-4 ? 0 : 1;
}
