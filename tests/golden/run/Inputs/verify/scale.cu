// verify --emulate fixture: a kernel whose result the program checks, RESULT line as the corpus prints it.
#include <cstdio>
#include <cuda_runtime.h>
__global__ void scale(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.5f * in[i] - 1.0f;
}
int main() {
  const int n = 5000;
  static float h_in[n], h_out[n];
  for (int i = 0; i < n; ++i) h_in[i] = i * 0.25f;
  float *in, *out;
  cudaMalloc(&in, sizeof h_in);
  cudaMalloc(&out, sizeof h_out);
  cudaMemcpy(in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
  scale<<<(n + 255) / 256, 256>>>(in, out, n);
  cudaMemcpy(h_out, out, sizeof h_out, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += h_out[i] != 2.5f * h_in[i] - 1.0f;
  std::printf("RESULT scale %s max_rel_err=0.0e+00 gpu_ms=1.000\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
