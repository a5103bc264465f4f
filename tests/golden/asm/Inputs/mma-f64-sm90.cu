// sm_90's f64 tensor-core shapes (PTX 7.8 mma.sync m16n8k4 and m16n8k16 .f64: DMMA.16x8x4 and
// DMMA.16x8x16), one warp each. The host packs each lane's fragments as the PTX ISA's tables give
// them (A element i of lane l: row l/4 + 8 (i % 2), column l%4 + 4 (i / 2); B element i: row
// l%4 + 4 i, column l/4; C/D as for every m16n8 shape), lane-major, and checks D against its own CPU
// product (values with few bits: every sum exact).
#include <cstdio>
#include <vector>

#define LANE threadIdx.x
#define R(p, j) (p)[(j) * 32 + LANE]

__global__ void f64_16x8x4(const double* a, const double* b, const double* c, double* d) {
  double d0, d1, d2, d3;
  asm volatile("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
               : "=d"(d0), "=d"(d1), "=d"(d2), "=d"(d3)
               : "d"(R(a, 0)), "d"(R(a, 1)), "d"(R(b, 0)), "d"(R(c, 0)), "d"(R(c, 1)), "d"(R(c, 2)), "d"(R(c, 3)));
  R(d, 0) = d0, R(d, 1) = d1, R(d, 2) = d2, R(d, 3) = d3;
}
__global__ void f64_16x8x16(const double* a, const double* b, const double* c, double* d) {
  double d0, d1, d2, d3;
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7,%8,%9,%10,%11}, {%12,%13,%14,%15}, "
               "{%16,%17,%18,%19};"
               : "=d"(d0), "=d"(d1), "=d"(d2), "=d"(d3)
               : "d"(R(a, 0)), "d"(R(a, 1)), "d"(R(a, 2)), "d"(R(a, 3)), "d"(R(a, 4)), "d"(R(a, 5)), "d"(R(a, 6)), "d"(R(a, 7)),
                 "d"(R(b, 0)), "d"(R(b, 1)), "d"(R(b, 2)), "d"(R(b, 3)), "d"(R(c, 0)), "d"(R(c, 1)), "d"(R(c, 2)), "d"(R(c, 3)));
  R(d, 0) = d0, R(d, 1) = d1, R(d, 2) = d2, R(d, 3) = d3;
}

typedef void (*Kernel)(const double*, const double*, const double*, double*);
static unsigned seed = 99;
static int next_int(int lo, int hi) {
  seed = seed * 1103515245u + 12345u;
  return lo + (int)((seed >> 16) % (unsigned)(hi - lo + 1));
}
static double* to_device(const std::vector<double>& v) {
  double* p;
  cudaMalloc(&p, v.size() * sizeof(double));
  cudaMemcpy(p, v.data(), v.size() * sizeof(double), cudaMemcpyHostToDevice);
  return p;
}

static int run_case(const char* name, Kernel kernel, int k) {
  std::vector<double> a(16 * k), b(k * 8), c(16 * 8);
  for (auto& x : a) x = next_int(-1000, 1000) / 64.0;
  for (auto& x : b) x = next_int(-1000, 1000) / 64.0;
  for (auto& x : c) x = next_int(-1000, 1000) / 8.0;
  std::vector<double> ar(k / 2 * 32), br(k / 4 * 32), cr(4 * 32);
  for (int l = 0; l < 32; ++l) {
    const int g = l / 4, t = l % 4;
    for (int i = 0; i < k / 2; ++i) ar[i * 32 + l] = a[(g + 8 * (i % 2)) * k + t + 4 * (i / 2)];
    for (int i = 0; i < k / 4; ++i) br[i * 32 + l] = b[(t + 4 * i) * 8 + g];
    for (int i = 0; i < 4; ++i) cr[i * 32 + l] = c[(g + 8 * (i / 2)) * 8 + 2 * t + (i & 1)];
  }
  double *da = to_device(ar), *db = to_device(br), *dc = to_device(cr), *dd = to_device(std::vector<double>(4 * 32, 0));
  kernel<<<1, 32>>>(da, db, dc, dd);
  std::vector<double> dr(4 * 32);
  cudaMemcpy(dr.data(), dd, dr.size() * sizeof(double), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int l = 0; l < 32; ++l)
    for (int i = 0; i < 4; ++i) {
      const int row = l / 4 + 8 * (i / 2), col = 2 * (l % 4) + (i & 1);
      double expected = c[row * 8 + col];
      for (int j = 0; j < k; ++j) expected += a[row * k + j] * b[j * 8 + col];
      if (dr[i * 32 + l] != expected && bad++ < 4) printf("%s: D[%d][%d] = %g, expected %g\n", name, row, col, dr[i * 32 + l], expected);
    }
  printf("%s: %s\n", name, bad ? "FAIL" : "ok");
  return bad != 0;
}

int main() {
  int failures = run_case("f64_16x8x4", f64_16x8x4, 4);
  failures += run_case("f64_16x8x16", f64_16x8x16, 16);
  printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
