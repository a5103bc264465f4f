// f64 arithmetic from nvcc 11.8: DADD, DMUL, DFMA to nearest and with .RZ/.RM/.RP (the __dadd_rz
// ... intrinsics), DSETP compares (ordered and unordered) and FRND.F64; the CPU check computes the
// same operations with its FPU switched to each rounding mode (fesetround) and compares bits.
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

// The directed-rounding intrinsics have no HIP equivalent; the HIP translation supplies only the
// host code (the device code is nvcc's SASS, lifted), so its kernel body may differ.
#ifdef __HIPCC__
#define ROUNDED(op, mode) op##_rn
#else
#define ROUNDED(op, mode) op##_##mode
#endif

const int kOut = 17;  // not a power of two: the index is an IMAD, not a shift

__global__ void doubles(const double* a, const double* b, const double* c, double* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double x = a[i], y = b[i], z = c[i];
  double* o = out + i * kOut;
  o[0] = x + y;
  o[1] = x * y;
  o[2] = fma(x, y, z);
  o[3] = ROUNDED(__dadd, rz)(x, y);
  o[4] = ROUNDED(__dadd, rd)(x, y);
  o[5] = ROUNDED(__dadd, ru)(x, y);
  o[6] = ROUNDED(__dmul, rz)(x, y);
  o[7] = ROUNDED(__dmul, rd)(x, y);
  o[8] = ROUNDED(__dmul, ru)(x, y);
  o[9] = ROUNDED(__fma, rz)(x, y, z);
  o[10] = ROUNDED(__fma, rd)(x, y, z);
  o[11] = ROUNDED(__fma, ru)(x, y, z);
  o[12] = x < y ? 1.0 : 0.0;
  o[13] = !(x >= y) ? 1.0 : 0.0;
  o[14] = x != y ? 1.0 : 0.0;
  o[15] = x - y * z;
  o[16] = fabs(x) * -y;
}

// The host's operations in a rounding mode; volatile globals keep them after fesetround.
volatile double g_x, g_y, g_z, g_r;
static double in_mode(int mode, int op) {
  fesetround(mode);
  if (op == 0) g_r = g_x + g_y;
  else if (op == 1) g_r = g_x * g_y;
  else g_r = fma(g_x, g_y, g_z);
  fesetround(FE_TONEAREST);
  return g_r;
}
static uint64_t bits(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static bool same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || bits(a) == bits(b); }

int main() {
  const double nan = NAN, inf = INFINITY;
  const double xs[] = {1.0, 0.1, -0.1, 1e308, 0x1p-1000, -0x1p-600, 3.0, nan, inf, 1.0 / 3.0, -2.5, 0.0, 1e-310, -7.0, 123456.789, 2.0};
  const double ys[] = {0x1p-60, 0.2, 0.3, 10.0, 0x1p-70, 0x1p-600, 1.0 / 3.0, 1.0, -inf, 3.0, -2.5, -0.0, 1e-310, 7.0, -0.001, 0x1.0000000000001p0};
  const double zs[] = {-1.0, -0.02, 0.5, -1e308, 0x1p-1074, 0.0, -1.0, 2.0, 1.0, -1.0, -6.25, 0.0, -1e-320, 49.0, 5.5, -2.0};
  const int n = 16;
  double *da, *db, *dc, *dout, out[n * kOut];
  cudaMalloc(&da, sizeof xs); cudaMalloc(&db, sizeof ys); cudaMalloc(&dc, sizeof zs); cudaMalloc(&dout, sizeof out);
  cudaMemcpy(da, xs, sizeof xs, cudaMemcpyHostToDevice);
  cudaMemcpy(db, ys, sizeof ys, cudaMemcpyHostToDevice);
  cudaMemcpy(dc, zs, sizeof zs, cudaMemcpyHostToDevice);
  doubles<<<1, 32>>>(da, db, dc, dout, n);
  cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
  int bad = 0;
  const int modes[] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
  for (int i = 0; i < n; ++i) {
    g_x = xs[i];
    g_y = ys[i];
    g_z = zs[i];
    double want[kOut];
    want[0] = in_mode(FE_TONEAREST, 0);
    want[1] = in_mode(FE_TONEAREST, 1);
    want[2] = in_mode(FE_TONEAREST, 2);
    for (int m = 1; m < 4; ++m)
      for (int op = 0; op < 3; ++op) want[3 * op + m + 2] = in_mode(modes[m], op);
    const double x = xs[i], y = ys[i], z = zs[i];
    want[12] = x < y ? 1.0 : 0.0;
    want[13] = !(x >= y) ? 1.0 : 0.0;
    want[14] = x != y ? 1.0 : 0.0;
    want[15] = std::fma(-y, z, x);  // nvcc contracts x - y*z into one DFMA
    want[16] = std::fabs(x) * -y;
    for (int k = 0; k < kOut; ++k)
      if (!same(out[i * kOut + k], want[k]) && bad++ < 20)
        printf("mismatch: element %d output %d: got %a want %a\n", i, k, out[i * kOut + k], want[k]);
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
