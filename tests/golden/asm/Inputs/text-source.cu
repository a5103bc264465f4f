// __constant__ data and a struct passed by value, which SASS text alone cannot place: the
// variables of an anonymous namespace (clang emits them in order of use, nvcc lays them out in
// order of definition), an initialised table, and host writes with cudaMemcpyToSymbol.
#include <cstdio>

namespace {
__constant__ float c_scale[4];
__constant__ int c_offset[2];
}  // namespace
__constant__ double c_table[3] = {1.5, 2.25, -3.125};

struct Params {
  float gain;
  int shift;
  double bias;
  char tag;
};

__global__ void apply(Params p, const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  // Used in the reverse of their definition order, and indexed by a register.
  const int o = c_offset[i & 1];
  out[i] = (in[i] * c_scale[i & 3] + (float)c_table[i % 3]) * p.gain + (float)(o + p.shift) + (float)p.bias + p.tag;
}

int main() {
  const int n = 96;
  float h_in[n], h_out[n];
  for (int i = 0; i < n; ++i) h_in[i] = 0.25f * i - 3.0f;
  const float scale[4] = {2.0f, -1.0f, 0.5f, 4.0f};
  const int offset[2] = {10, -20};
  cudaMemcpyToSymbol(c_scale, scale, sizeof scale);
  cudaMemcpyToSymbol(c_offset, offset, sizeof offset);
  float *d_in = nullptr, *d_out = nullptr;
  cudaMalloc(&d_in, sizeof h_in);
  cudaMalloc(&d_out, sizeof h_out);
  cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
  const Params p{1.5f, 3, 0.125, 2};
  apply<<<3, 32>>>(p, d_in, d_out, n);
  cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
  const double table[3] = {1.5, 2.25, -3.125};
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    const float want = (h_in[i] * scale[i & 3] + (float)table[i % 3]) * p.gain + (float)(offset[i & 1] + p.shift) + (float)p.bias + p.tag;
    if (h_out[i] != want && ++bad < 5) printf("mismatch at %d: %g, expected %g\n", i, h_out[i], want);
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
