// Data-dependent while loop (Collatz steps): lanes leave the loop at different times.
extern "C" __global__ void while_divergent(const unsigned* in, unsigned* steps, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned x = in[i], s = 0;
  while (x > 1u && s < 1000u) {
    x = (x & 1u) ? 3u * x + 1u : x >> 1;
    ++s;
  }
  steps[i] = s;
}
