// A 64-bit loop counter that crosses 2^32: SASS advances it in two halves (IADD3 with a carry
// out, IADD3.X adding the carry to the high words) and compares it in two (ISETP, ISETP.EX).
#include <cstdio>

__global__ void walk(unsigned* out, unsigned long long start, unsigned long long end, unsigned long long stride) {
  for (unsigned long long i = start + blockIdx.x * blockDim.x + threadIdx.x; i < end; i += stride)
    atomicAdd(&out[i & 1023], static_cast<unsigned>(i >> 32) * 7u + static_cast<unsigned>(i) + 1u);
}

int main() {
  const unsigned long long start = 0xffffe000ull, end = start + 20000, stride = 2 * 64 + 3;
  unsigned* d_out;
  cudaMalloc(&d_out, 1024 * sizeof(unsigned));
  cudaMemset(d_out, 0, 1024 * sizeof(unsigned));
  walk<<<2, 64>>>(d_out, start, end, stride);
  unsigned out[1024] = {}, want[1024] = {};
  cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
  for (unsigned t = 0; t < 128; ++t)
    for (unsigned long long i = start + t; i < end; i += stride)
      want[i & 1023] += static_cast<unsigned>(i >> 32) * 7u + static_cast<unsigned>(i) + 1u;
  int bad = 0;
  for (int k = 0; k < 1024; ++k)
    if (out[k] != want[k] && ++bad < 8) printf("mismatch at %d: %u, expected %u\n", k, out[k], want[k]);
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
