#include <cstdio>
#include <cstdlib>
__global__ void vadd(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
int main() {
  const int n = 1000;
  float *a, *b, *c, ha[n], hb[n], hc[n];
  for (int i = 0; i < n; ++i) { ha[i] = i; hb[i] = 2 * i; }
  cudaMalloc(&a, n * 4); cudaMalloc(&b, n * 4); cudaMalloc(&c, n * 4);
  cudaMemcpy(a, ha, n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(b, hb, n * 4, cudaMemcpyHostToDevice);
  vadd<<<(n + 127) / 128, 128>>>(a, b, c, n);
  cudaMemcpy(hc, c, n * 4, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += hc[i] != 3.0f * i;
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
