#include <hip/hip_runtime.h>
#include <cstdio>
// Writes one element past its buffer from the last thread, then uses a freed buffer.
__global__ void past_end(int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) out[i] = i;
}
int main(int argc, char**) {
  int* p;
  hipMalloc(&p, 100 * sizeof(int));
  if (argc > 1) {  // use after free
    hipFree(p);
    hipLaunchKernelGGL(past_end, dim3(1), dim3(64), 0, 0, p, 10);
  } else {
    hipLaunchKernelGGL(past_end, dim3(1), dim3(128), 0, 0, p, 100);
  }
  hipDeviceSynchronize();
  printf("not reached\n");
  return 0;
}
