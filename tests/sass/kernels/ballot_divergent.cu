// Warp votes inside a divergent region: the active mask differs from the full warp.
extern "C" __global__ void ballot_divergent(const int* in, unsigned* out) {
  int v = in[threadIdx.x];
  unsigned r = 0;
  if (v > 0) {
    unsigned m = __activemask();
    r = __ballot_sync(m, v > 10);
    if (__any_sync(m, v > 100)) r |= 1u;
    if (__all_sync(m, v > 1)) r |= 2u;
  }
  out[threadIdx.x] = r;
}
