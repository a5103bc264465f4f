// Harness fixture: a program that reports PASS with a timing.
#include <cstdio>
__global__ void unused_kernel(float* x) { x[threadIdx.x] = 0.0f; }
int main() {
  std::printf("RESULT passes PASS max_rel_err=1.0e-07 gpu_ms=2.000\n");
  return 0;
}
