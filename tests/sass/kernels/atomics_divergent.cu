// Atomics and a device function call under divergence; 64-bit and float operands.
__device__ __noinline__ double weight(double x) { return x > 0.5 ? x * x : 1.0 / (x + 2.0); }
extern "C" __global__ void atomics_divergent(const double* in, double* sum, unsigned long long* hits, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double v = in[i];
  if (v != v) return;
  if (v < 0.0) {
    atomicAdd(hits, 1ull);
  } else {
    atomicAdd(sum, weight(v));
  }
}
