// Two-way divergence: lanes split on a data-dependent condition and rejoin.
extern "C" __global__ void if_else(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = in[i];
  if (v > 0.0f) {
    v = sqrtf(v) * 2.0f;
    out[i] = v;
  } else {
    v = -v + 1.0f;
    out[i] = v * v;
  }
}
