// Harness fixture: a program that never finishes (the harness must time it out).
#include <cstdio>
#include <unistd.h>
__global__ void unused_kernel(float* x) { x[threadIdx.x] = 0.0f; }
int main() {
  for (;;) sleep(1);
}
