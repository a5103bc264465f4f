/* Host C compiled by gcc, outside nvcc, calling CUDA's runtime (as Rodinia's b+tree does). */
#include <cuda_runtime.h>
#include <stdio.h>

double scale_on_gpu(int n, float factor);

int main(void) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices < 1 || cudaSetDevice(0) != cudaSuccess) {
    printf("scale: no device\n");
    return 1;
  }
  const double sum = scale_on_gpu(1 << 12, 0.5f);  /* 0.5 * (0 + 1 + ... + 4095) */
  const int ok = sum == 0.5 * 4095.0 * 4096.0 / 2.0;
  printf("scale: %.1f: %s\n", sum, ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
