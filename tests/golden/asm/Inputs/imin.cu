#include <cstdio>
__global__ void clamp_min(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = min(in[i], 1000);
}
int main() {
  const int n = 300;
  int h[n], r[n];
  for (int i = 0; i < n; ++i) h[i] = i * 7 - 500;
  int *a, *b;
  cudaMalloc(&a, n * sizeof(int));
  cudaMalloc(&b, n * sizeof(int));
  cudaMemcpy(a, h, n * sizeof(int), cudaMemcpyHostToDevice);
  clamp_min<<<(n + 127) / 128, 128>>>(a, b, n);
  cudaMemcpy(r, b, n * sizeof(int), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += r[i] != (h[i] < 1000 ? h[i] : 1000);
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
