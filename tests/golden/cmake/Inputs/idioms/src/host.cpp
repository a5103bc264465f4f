// Host code that includes the CUDA runtime: a C++ file, compiled by the C++ compiler.
#include <cuda_runtime.h>

#include <cstdio>

extern "C" int checksum(const int* values, int count);
void square_on_device(int* values, int count);
double uniform_sum(int count);

int main() {
  const int count = 100;
  int host[count];
  for (int i = 0; i < count; ++i) host[i] = i;
  int* device = nullptr;
  if (cudaMalloc(&device, sizeof(host)) != cudaSuccess) return 1;
  cudaMemcpy(device, host, sizeof(host), cudaMemcpyHostToDevice);
  square_on_device(device, count);
  cudaMemcpy(host, device, sizeof(host), cudaMemcpyDeviceToHost);
  cudaFree(device);
  const int sum = checksum(host, count);  // 0^2 + ... + 99^2
  const double noise = uniform_sum(1000);
  const bool ok = sum == 328350 && noise > 400 && noise < 600;
  std::printf("idioms: sum of squares %d, uniform sum in (400, 600): %s\n", sum, ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
