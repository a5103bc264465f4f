// A device function whose host-pass branch calls host functions (llama.cpp's NO_DEVICE_CODE).
#include <cstdio>
#include <cstdlib>
#ifdef __CUDA_ARCH__
#define NO_DEVICE_CODE __trap()
#else
#define NO_DEVICE_CODE                          \
  do {                                          \
    fprintf(stderr, "not valid in host code\n"); \
    abort();                                    \
  } while (0)
#endif

__device__ int twice(int x) {
#if __CUDA_ARCH__ >= 100
  return 2 * x;
#else
  NO_DEVICE_CODE;
#endif
}

__global__ void k(int* p) { *p = twice(*p); }

int main() {
  int* p;
  cudaMallocManaged(&p, sizeof(int));
  *p = 21;
  k<<<1, 1>>>(p);
  cudaDeviceSynchronize();
  printf("twice: %d\n", *p);
  return *p == 42 ? 0 : 1;
}
