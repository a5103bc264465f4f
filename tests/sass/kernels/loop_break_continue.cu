// Loop with data-dependent trip count, continue and break: per-lane loop exits.
extern "C" __global__ void loop_break_continue(const int* a, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int acc = 0;
  for (int k = 0; k < a[i]; ++k) {
    int v = a[(i + k) % n];
    if (v % 3 == 0) continue;
    if (v < 0) break;
    acc += v * k;
  }
  out[i] = acc;
}
