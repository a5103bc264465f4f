// NVIDIA's FP32 arithmetic writes one NaN, 0x7fffffff; AMD's keeps an operand's payload. The
// translation canonicalises where bits can be seen (stores, integer use of the bits) and nowhere
// else: a Horner chain of FFMAs needs it once, at the store. Inputs carry NaNs with payloads
// and signs.
#include <cstdio>
#include <cstring>

__global__ void horner(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float v = x[i];
  float p = 0.5f;
#pragma unroll
  for (int k = 0; k < 8; ++k) p = p * v + 0.25f * k;
  out[i] = p;
}

__global__ void bits(const float* x, int* word, int* is_nan, float* sum, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float m = x[i] * 3.0f;
  word[i] = __float_as_int(m) ^ 1;   // the bits of an intermediate, seen through integer code
  const float s = m + x[(i + 1) % n];
  is_nan[i] = s != s;                // a compare: no payload read
  sum[i] = s - 1.0f;
}

static float from(unsigned b) { float f; std::memcpy(&f, &b, 4); return f; }
static unsigned to(float f) { unsigned b; std::memcpy(&b, &f, 4); return b; }
static unsigned nvidia(float f) { return f != f ? 0x7fffffffu : to(f); }

int main() {
  const int n = 64;
  float h[n];
  for (int i = 0; i < n; ++i) h[i] = 0.125f * i - 2.0f;
  h[3] = from(0x7fa00001u);   // quiet NaN with a payload
  h[9] = from(0xffc00123u);   // negative quiet NaN
  h[17] = from(0x7f800000u);  // +inf: inf * 0 and inf - inf make NaN
  h[18] = from(0xff800000u);
  float *d_x, *d_out, *d_sum;
  int *d_word, *d_nan;
  cudaMalloc(&d_x, sizeof h);
  cudaMalloc(&d_out, sizeof h);
  cudaMalloc(&d_sum, sizeof h);
  cudaMalloc(&d_word, n * sizeof(int));
  cudaMalloc(&d_nan, n * sizeof(int));
  cudaMemcpy(d_x, h, sizeof h, cudaMemcpyHostToDevice);
  horner<<<2, 32>>>(d_x, d_out, n);
  bits<<<2, 32>>>(d_x, d_word, d_nan, d_sum, n);
  float out[n], sum[n];
  int word[n], isnan_[n];
  cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
  cudaMemcpy(sum, d_sum, sizeof sum, cudaMemcpyDeviceToHost);
  cudaMemcpy(word, d_word, sizeof word, cudaMemcpyDeviceToHost);
  cudaMemcpy(isnan_, d_nan, sizeof isnan_, cudaMemcpyDeviceToHost);
  int bad = 0, nans = 0;
  for (int i = 0; i < n; ++i) {
    float p = 0.5f;
    for (int k = 0; k < 8; ++k) p = __builtin_fmaf(p, h[i], 0.25f * k);
    const float m = h[i] * 3.0f;
    const float s = m + h[(i + 1) % n];
    const unsigned want[4] = {nvidia(p), nvidia(m) ^ 1u, s != s ? 1u : 0u, nvidia(s - 1.0f)};
    const unsigned got[4] = {to(out[i]), static_cast<unsigned>(word[i]), static_cast<unsigned>(isnan_[i]), to(sum[i])};
    nans += s != s;
    for (int j = 0; j < 4; ++j)
      if (got[j] != want[j] && ++bad < 8) printf("mismatch at %d.%d: %08x, expected %08x\n", i, j, got[j], want[j]);
  }
  printf("%d NaN sums; %s\n", nans, bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
