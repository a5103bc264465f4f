// Shuffle reduction inside a divergent branch with the branch's active mask.
extern "C" __global__ void shuffle_divergent(const float* in, float* out) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (v != 0.0f) {
    unsigned m = __activemask();
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(m, v, off);
    v = __shfl_sync(m, v, 0);
  } else {
    v = __shfl_xor_sync(0xffffffffu, v, 1);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
