// __constant__ and __device__ variables: a constant set by cudaMemcpyToSymbol, constants with
// initialisers in the cubin (read with a register index, sub-word and 64-bit), a __device__ table
// with an initialiser, __device__ counters written by the kernel and read back by the host.
#include <cstdio>
__constant__ int coef[4];
__constant__ int bias = 7;
__constant__ unsigned char small[8] = {1, 2, 3, 200, 5, 6, 7, 8};
__constant__ signed char tiny[8] = {-1, -2, -3, -100, 5, 6, 7, 8};
__constant__ short halfword[4] = {-300, 2, -3, 4};
__constant__ unsigned short uhalf[4] = {65000, 2, 3, 4};
__constant__ long long big[2] = {0x100000001ll, -5};
__device__ int table[4] = {10, 20, 30, 40};
__device__ int counters[4];
__global__ void apply(const int* in, int* out, short* out16, long long* out64, const int* pick, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int k = pick[i];
    out[i] = in[i] * coef[0] + coef[1] + bias + small[k] + tiny[k] + table[k];
    out16[2 * i] = halfword[k];
    out16[2 * i + 1] = uhalf[k];
    out64[i] = big[k >> 1];
    atomicAdd(&counters[k], 1);
  }
}
int main() {
  const int n = 200;
  int h_in[n], h_pick[n], h_out[n];
  short h_out16[2 * n];
  long long h_out64[n];
  for (int i = 0; i < n; ++i) { h_in[i] = i - 50; h_pick[i] = (i * 7) % 4; }
  const int c[4] = {3, -11, 0, 0};
  cudaMemcpyToSymbol(coef, c, sizeof c);
  int *in, *pick, *out; short* out16; long long* out64;
  cudaMalloc(&in, n * 4); cudaMalloc(&out, n * 4); cudaMalloc(&out16, n * 4); cudaMalloc(&out64, n * 8); cudaMalloc(&pick, n * 4);
  cudaMemcpy(in, h_in, n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(pick, h_pick, n * 4, cudaMemcpyHostToDevice);
  apply<<<(n + 63) / 64, 64>>>(in, out, out16, out64, pick, n);
  cudaMemcpy(h_out, out, n * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(h_out16, out16, n * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(h_out64, out64, n * 8, cudaMemcpyDeviceToHost);
  int count[4];
  cudaMemcpyFromSymbol(count, counters, sizeof count);
  const unsigned char s[8] = {1, 2, 3, 200, 5, 6, 7, 8};
  const signed char t8[8] = {-1, -2, -3, -100, 5, 6, 7, 8};
  const short w[4] = {-300, 2, -3, 4};
  const unsigned short u[4] = {65000, 2, 3, 4};
  const long long b[2] = {0x100000001ll, -5};
  const int t[4] = {10, 20, 30, 40};
  int bad = 0, want_count[4] = {0, 0, 0, 0};
  for (int i = 0; i < n; ++i) {
    int k = h_pick[i];
    ++want_count[k];
    int want = h_in[i] * 3 - 11 + 7 + s[k] + t8[k] + t[k];
    if (h_out[i] != want || h_out16[2 * i] != w[k] || h_out16[2 * i + 1] != (short)u[k] || h_out64[i] != b[k >> 1]) {
      if (bad < 5) printf("element %d: %d %d %d %lld, want %d %d %d %lld\n", i, h_out[i], h_out16[2 * i], h_out16[2 * i + 1], h_out64[i], want, w[k], (short)u[k], b[k >> 1]);
      ++bad;
    }
  }
  for (int k = 0; k < 4; ++k) {
    printf("counters[%d] = %d\n", k, count[k]);
    if (count[k] != want_count[k]) ++bad;
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
