#include <hip/hip_runtime.h>
#include <cstdio>
// A __constant__ table with internal linkage filled by the host: the kernel reaches it through a
// GOT entry, a dynamic relocation (R_AMDGPU_ABS64) the loader must apply.
namespace {
__constant__ unsigned k_table[64];
}
__global__ void mix(const unsigned* in, unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = k_table[in[i] % 64] ^ (k_table[(in[i] >> 6) % 64] << 1);
}
int main() {
  const int n = 1000;
  unsigned table[64], h_in[n], h_out[n];
  for (int i = 0; i < 64; ++i) table[i] = 0x9e3779b9u * (i + 1);
  for (int i = 0; i < n; ++i) h_in[i] = i * 37u;
  unsigned *in, *out;
  hipMalloc(&in, sizeof h_in);
  hipMalloc(&out, sizeof h_out);
  hipMemcpy(in, h_in, sizeof h_in, hipMemcpyHostToDevice);
  hipMemcpyToSymbol(HIP_SYMBOL(k_table), table, sizeof table);
  hipLaunchKernelGGL(mix, dim3((n + 127) / 128), dim3(128), 0, 0, in, out, n);
  hipMemcpy(h_out, out, sizeof h_out, hipMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += h_out[i] != (table[h_in[i] % 64] ^ (table[(h_in[i] >> 6) % 64] << 1));
  printf("constants: %s (%d mismatches)\n", bad ? "FAIL" : "PASS", bad);
  return bad != 0;
}
