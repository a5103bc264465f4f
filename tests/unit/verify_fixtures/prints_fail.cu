// Harness fixture: a program that runs (no GPU needed) and reports FAIL.
#include <cstdio>
__global__ void unused_kernel(float* x) { x[threadIdx.x] = 0.0f; }
int main() {
  std::printf("RESULT prints_fail FAIL max_rel_err=3.5e-01 gpu_ms=1.250\n");
  return 1;
}
