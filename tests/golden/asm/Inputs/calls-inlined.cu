// Many call sites of nvcc's double-division slow path (a subroutine: CALL.REL.NOINC ... RET),
// division by constants (MUFU.RCP64H with an immediate operand), floor and fused remainders: the
// modular arithmetic of cuRAND's MRG32k3a skip-ahead, written out so that the host check needs
// no cuRAND. Tiny dividends take the slow path at run time.
#include <cmath>
#include <cstdio>

__host__ __device__ inline double mod(double i, double m) {
  double q = floor(i / m);
  double r = fma(-q, m, i);
  if (r < 0.0) r += m;
  return r;
}
__host__ __device__ inline double mod_mul(double i, double j, double m) {
  double hi = floor(i / 131072.0);
  double lo = fma(hi, -131072.0, i);
  return mod(mod(hi * j, m) * 131072.0 + mod(lo * j, m), m);
}

__global__ void chain(const double* in, double* out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  double x = in[t];
  double acc = 12345.0;
#pragma unroll
  for (int k = 0; k < 6; ++k) acc = mod_mul(acc, x + k, 4294967087.0);
  out[3 * t] = acc;
  out[3 * t + 1] = mod(x * 3.0 + 17.0, 4294944443.0) / 4294944443.0;
  out[3 * t + 2] = in[n + t] / 3.0 + in[n + t] / 7.0;  // denormal dividends: the slow path
}

int main() {
  const int n = 64;
  double h[2 * n];
  for (int i = 0; i < n; ++i) {
    h[i] = 1000003.0 * i + 4000000000.0 * (i % 2);
    h[n + i] = (i % 3 == 0 ? 4.9e-324 : 1.0e-310) * (i + 1);
  }
  double *d_in = nullptr, *d_out = nullptr;
  cudaMalloc(&d_in, sizeof h);
  cudaMalloc(&d_out, 3 * n * sizeof(double));
  cudaMemcpy(d_in, h, sizeof h, cudaMemcpyHostToDevice);
  chain<<<2, 32>>>(d_in, d_out, n);
  double out[3 * n];
  cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < n; ++t) {
    double acc = 12345.0;
    for (int k = 0; k < 6; ++k) acc = mod_mul(acc, h[t] + k, 4294967087.0);
    const double want[3] = {acc, mod(h[t] * 3.0 + 17.0, 4294944443.0) / 4294944443.0, h[n + t] / 3.0 + h[n + t] / 7.0};
    for (int j = 0; j < 3; ++j)
      if (out[3 * t + j] != want[j]) {
        if (++bad < 5) printf("mismatch t=%d j=%d: %.17g, expected %.17g\n", t, j, out[3 * t + j], want[j]);
      }
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
