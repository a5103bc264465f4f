// Nested divergence: an inner if/else inside each arm of an outer if/else.
extern "C" __global__ void nested_branches(const int* a, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = a[i];
  int r;
  if (v & 1) {
    if (v & 2) r = v * 3 + a[(i + 1) % n];
    else r = v - 7;
  } else {
    if (v & 4) r = v / 3;
    else r = a[(i * 7) % n] ^ v;
  }
  out[i] = r;
}
