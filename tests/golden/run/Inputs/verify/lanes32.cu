// verify --emulate fixture: assumes 32-lane warps (a ballot kept in 32 bits, counted per group of
// 32 threads): right in wave32, wrong in wave64 (the upper half of the wave's mask is lost).
#include <cstdio>
#include <cuda_runtime.h>
__global__ void warp_sums(const int* in, int* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned b = __ballot_sync(0xffffffff, in[i] > 3);
  if (threadIdx.x % 32 == 0) out[i / 32] = __popc(b);
}
int main() {
  const int n = 1024;
  static int h_in[n], h_out[n / 32];
  for (int i = 0; i < n; ++i) h_in[i] = (i * i) % 7;
  int *in, *out;
  cudaMalloc(&in, sizeof h_in);
  cudaMalloc(&out, sizeof h_out);
  cudaMemcpy(in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
  warp_sums<<<n / 256, 256>>>(in, out);
  cudaMemcpy(h_out, out, sizeof h_out, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int w = 0; w < n / 32; ++w) {
    int s = 0;
    for (int l = 0; l < 32; ++l) s += h_in[w * 32 + l] > 3;
    bad += h_out[w] != s;
  }
  std::printf("RESULT lanes32 %s max_rel_err=0.0e+00 gpu_ms=1.000\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
