// Harness fixture: a program that crashes before printing a RESULT line.
#include <cstdio>
#include <cstdlib>
__global__ void unused_kernel(float* x) { x[threadIdx.x] = 0.0f; }
int main() {
  std::printf("starting\n");
  std::fflush(stdout);
  std::abort();
}
