// Tensor-core instructions from inline PTX (mma.sync), one warp each (ldmatrix: mma-ldsm.cu). The host
// builds every lane's fragment registers from whole matrices with the PTX ISA's fragment tables
// ("Matrix Fragments for mma.m16n8k16" ...), passed lane-major (register j of lane l at [j*32 + l])
// so that the kernels need no index arithmetic, and checks D against its own matrix product.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#define LANE threadIdx.x
#define R(p, j) (p)[(j) * 32 + LANE]

__global__ void f16_f32_16816(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* d) {
  uint32_t d0, d1, d2, d3;
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
               : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
               : "r"(R(a, 0)), "r"(R(a, 1)), "r"(R(a, 2)), "r"(R(a, 3)), "r"(R(b, 0)), "r"(R(b, 1)), "r"(R(c, 0)), "r"(R(c, 1)), "r"(R(c, 2)), "r"(R(c, 3)));
  R(d, 0) = d0, R(d, 1) = d1, R(d, 2) = d2, R(d, 3) = d3;
}
__global__ void f16_f16_16816(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* d) {
  uint32_t d0, d1;
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};"
               : "=r"(d0), "=r"(d1)
               : "r"(R(a, 0)), "r"(R(a, 1)), "r"(R(a, 2)), "r"(R(a, 3)), "r"(R(b, 0)), "r"(R(b, 1)), "r"(R(c, 0)), "r"(R(c, 1)));
  R(d, 0) = d0, R(d, 1) = d1;
}
__global__ void bf16_f32_16816(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* d) {
  uint32_t d0, d1, d2, d3;
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
               : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
               : "r"(R(a, 0)), "r"(R(a, 1)), "r"(R(a, 2)), "r"(R(a, 3)), "r"(R(b, 0)), "r"(R(b, 1)), "r"(R(c, 0)), "r"(R(c, 1)), "r"(R(c, 2)), "r"(R(c, 3)));
  R(d, 0) = d0, R(d, 1) = d1, R(d, 2) = d2, R(d, 3) = d3;
}
__global__ void f16_f32_1688(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* d) {
  uint32_t d0, d1, d2, d3;
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
               : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
               : "r"(R(a, 0)), "r"(R(a, 1)), "r"(R(b, 0)), "r"(R(c, 0)), "r"(R(c, 1)), "r"(R(c, 2)), "r"(R(c, 3)));
  R(d, 0) = d0, R(d, 1) = d1, R(d, 2) = d2, R(d, 3) = d3;
}
__global__ void f16_f16_1688(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* d) {
  uint32_t d0, d1;
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3}, {%4}, {%5,%6};"
               : "=r"(d0), "=r"(d1) : "r"(R(a, 0)), "r"(R(a, 1)), "r"(R(b, 0)), "r"(R(c, 0)), "r"(R(c, 1)));
  R(d, 0) = d0, R(d, 1) = d1;
}
// C = 0 as a constant: ptxas gives the HMMA RZ for C (as wmma's fill_fragment(0) does).
__global__ void f16_f32_16816_zero_c(const uint32_t* a, const uint32_t* b, const uint32_t*, uint32_t* d) {
  uint32_t d0, d1, d2, d3;
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%10,%10,%10};"
               : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
               : "r"(R(a, 0)), "r"(R(a, 1)), "r"(R(a, 2)), "r"(R(a, 3)), "r"(R(b, 0)), "r"(R(b, 1)), "r"(0u));
  R(d, 0) = d0, R(d, 1) = d1, R(d, 2) = d2, R(d, 3) = d3;
}
__global__ void tf32_1688(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* d) {
  uint32_t d0, d1, d2, d3;
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
               : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
               : "r"(R(a, 0)), "r"(R(a, 1)), "r"(R(a, 2)), "r"(R(a, 3)), "r"(R(b, 0)), "r"(R(b, 1)), "r"(R(c, 0)), "r"(R(c, 1)), "r"(R(c, 2)), "r"(R(c, 3)));
  R(d, 0) = d0, R(d, 1) = d1, R(d, 2) = d2, R(d, 3) = d3;
}
__global__ void tf32_1684(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* d) {
  uint32_t d0, d1, d2, d3;
  asm volatile("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
               : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
               : "r"(R(a, 0)), "r"(R(a, 1)), "r"(R(b, 0)), "r"(R(c, 0)), "r"(R(c, 1)), "r"(R(c, 2)), "r"(R(c, 3)));
  R(d, 0) = d0, R(d, 1) = d1, R(d, 2) = d2, R(d, 3) = d3;
}
__global__ void s8_16832_sat(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* d) {
  uint32_t d0, d1, d2, d3;
  asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
               : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
               : "r"(R(a, 0)), "r"(R(a, 1)), "r"(R(a, 2)), "r"(R(a, 3)), "r"(R(b, 0)), "r"(R(b, 1)), "r"(R(c, 0)), "r"(R(c, 1)), "r"(R(c, 2)), "r"(R(c, 3)));
  R(d, 0) = d0, R(d, 1) = d1, R(d, 2) = d2, R(d, 3) = d3;
}
__global__ void u8s8_16832(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* d) {
  uint32_t d0, d1, d2, d3;
  asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.u8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
               : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
               : "r"(R(a, 0)), "r"(R(a, 1)), "r"(R(a, 2)), "r"(R(a, 3)), "r"(R(b, 0)), "r"(R(b, 1)), "r"(R(c, 0)), "r"(R(c, 1)), "r"(R(c, 2)), "r"(R(c, 3)));
  R(d, 0) = d0, R(d, 1) = d1, R(d, 2) = d2, R(d, 3) = d3;
}
__global__ void s8_8816(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* d) {
  uint32_t d0, d1;
  asm volatile("mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32 {%0,%1}, {%2}, {%3}, {%4,%5};"
               : "=r"(d0), "=r"(d1) : "r"(R(a, 0)), "r"(R(b, 0)), "r"(R(c, 0)), "r"(R(c, 1)));
  R(d, 0) = d0, R(d, 1) = d1;
}
__global__ void f64_884(const double* a, const double* b, const double* c, double* d) {
  double d0, d1;
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%4,%5};"
               : "=d"(d0), "=d"(d1) : "d"(R(a, 0)), "d"(R(b, 0)), "d"(R(c, 0)), "d"(R(c, 1)));
  R(d, 0) = d0, R(d, 1) = d1;
}
// ---- host -----------------------------------------------------------------------------------------
static int failures = 0;

static uint32_t f32_bits(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
static float f32_from(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
// f16 bits of a float that f16 holds exactly (the test values: small multiples of 1/2).
static uint32_t f16_bits(float f) {
  const uint32_t b = f32_bits(f);
  if ((b & 0x7fffffffu) == 0) return (b >> 16) & 0x8000u;
  return ((b >> 16) & 0x8000u) | ((((b >> 23) & 0xff) - 127 + 15) << 10) | ((b >> 13) & 0x3ffu);
}
static float f16_value(uint32_t h) {
  const uint32_t e = (h >> 10) & 0x1f, m = h & 0x3ff;
  const float v = e == 0 ? m / 16777216.0f : (1024 + m) * (float)(1 << e) / (1 << 25);
  return (h & 0x8000u) ? -v : v;
}

// Where fragment element i of lane l is: row and column of its matrix (g = l / 4, t = l % 4).
struct Place { int row, col; };
typedef Place (*Layout)(int l, int i);
static Place c_frag(int l, int i) { return {l / 4 + 8 * (i / 2), 2 * (l % 4) + (i & 1)}; }
static Place a_16816(int l, int i) { return {l / 4 + ((i / 2) % 2) * 8, 2 * (l % 4) + (i & 1) + (i >= 4) * 8}; }
static Place b_16816(int l, int i) { return {2 * (l % 4) + (i & 1) + (i >= 2) * 8, l / 4}; }
static Place a_1688(int l, int i) { return {l / 4 + (i >= 2) * 8, 2 * (l % 4) + (i & 1)}; }
static Place b_1688(int l, int i) { return {2 * (l % 4) + i, l / 4}; }
static Place a_tf32_1688(int l, int i) { return {l / 4 + (i % 2) * 8, l % 4 + (i >= 2) * 4}; }
static Place b_tf32_1688(int l, int i) { return {l % 4 + i * 4, l / 4}; }
static Place a_tf32_1684(int l, int i) { return {l / 4 + i * 8, l % 4}; }
static Place b_tf32_1684(int l, int) { return {l % 4, l / 4}; }
static Place a_16832(int l, int i) { return {l / 4 + ((i / 4) % 2) * 8, 4 * (l % 4) + (i & 3) + (i >= 8) * 16}; }
static Place b_16832(int l, int i) { return {4 * (l % 4) + (i & 3) + (i >= 4) * 16, l / 4}; }
static Place a_8816(int l, int i) { return {l / 4, 4 * (l % 4) + i}; }
static Place b_8816(int l, int i) { return {4 * (l % 4) + i, l / 4}; }

// Packs element codes (bits wide each) of a rows x cols matrix into lane-major registers.
static std::vector<uint32_t> pack(const std::vector<uint32_t>& codes, int cols, Layout at, int elements, int bits) {
  const int per_word = 32 / bits;
  const uint32_t mask = bits == 32 ? ~0u : (1u << bits) - 1;
  std::vector<uint32_t> regs(elements / per_word * 32, 0);
  for (int l = 0; l < 32; ++l)
    for (int i = 0; i < elements; ++i) {
      Place p = at(l, i);
      regs[(i / per_word) * 32 + l] |= (codes[p.row * cols + p.col] & mask) << (bits * (i % per_word));
    }
  return regs;
}

template <typename T>
static T* to_device(const std::vector<T>& v) {
  T* p;
  cudaMalloc(&p, v.size() * sizeof(T));
  cudaMemcpy(p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice);
  return p;
}
template <typename T>
static std::vector<T> from_device(const T* p, size_t n) {
  std::vector<T> v(n);
  cudaMemcpy(v.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost);
  return v;
}

static unsigned seed = 12345;
static int next_int(int lo, int hi) {  // a small LCG: the same data on every host
  seed = seed * 1103515245u + 12345u;
  return lo + (int)((seed >> 16) % (unsigned)(hi - lo + 1));
}

typedef void (*Kernel)(const uint32_t*, const uint32_t*, const uint32_t*, uint32_t*);

// m x k times k x 8 of float values (f16, bf16 or tf32 codes), C and D f32 (or packed f16).
enum Kind { F16, BF16, TF32 };
static void float_case(const char* name, Kernel kernel, int k, Kind kind, Layout a_at, Layout b_at, bool f16_accumulator,
                       bool zero_c = false) {
  std::vector<float> a(16 * k), b(k * 8), c(16 * 8);
  for (auto& x : a) x = next_int(-8, 8) / 2.0f;
  for (auto& x : b) x = next_int(-8, 8) / 2.0f;
  for (auto& x : c) x = zero_c ? 0.0f : next_int(-64, 64) / 4.0f;
  auto code = [&](float x) -> uint32_t {
    if (kind == F16) return f16_bits(x);
    if (kind == BF16) return f32_bits(x) >> 16;
    return f32_bits(x) | 0x1fffu;  // tf32 ignores the low 13 bits
  };
  std::vector<uint32_t> ac, bc, cc;
  for (float x : a) ac.push_back(code(x));
  for (float x : b) bc.push_back(code(x));
  const int bits = kind == TF32 ? 32 : 16;
  const int per_word = 32 / bits;
  std::vector<uint32_t> ar = pack(ac, k, a_at, 16 * k / 32, bits), br = pack(bc, 8, b_at, 8 * k / 32, bits), cr;
  (void)per_word;
  if (f16_accumulator) {
    for (float x : c) cc.push_back(f16_bits(x));
    cr = pack(cc, 8, c_frag, 4, 16);
  } else {
    for (float x : c) cc.push_back(f32_bits(x));
    cr = pack(cc, 8, c_frag, 4, 32);
  }
  uint32_t *da = to_device(ar), *db = to_device(br), *dc = to_device(cr), *dd = to_device(std::vector<uint32_t>(cr.size(), 0));
  kernel<<<1, 32>>>(da, db, dc, dd);
  std::vector<uint32_t> dr = from_device(dd, cr.size());
  int bad = 0;
  for (int l = 0; l < 32; ++l)
    for (int i = 0; i < 4; ++i) {
      Place p = c_frag(l, i);
      float expected = c[p.row * 8 + p.col];
      for (int j = 0; j < k; ++j) expected += a[p.row * k + j] * b[j * 8 + p.col];
      const float got = f16_accumulator ? f16_value((dr[(i / 2) * 32 + l] >> (16 * (i % 2))) & 0xffff) : f32_from(dr[i * 32 + l]);
      if (got != expected && bad++ < 4) printf("%s: D[%d][%d] = %g, expected %g\n", name, p.row, p.col, got, expected);
    }
  printf("%s: %s\n", name, bad ? "FAIL" : "ok");
  failures += bad != 0;
}

static void int_case(const char* name, Kernel kernel, int m, int k, bool a_unsigned, Layout a_at, Layout b_at, bool saturate) {
  std::vector<int> a(m * k), b(k * 8), c(m * 8);
  for (auto& x : a) x = a_unsigned ? next_int(0, 255) : next_int(-128, 127);
  for (auto& x : b) x = next_int(-128, 127);
  for (auto& x : c) x = next_int(-100000, 100000);
  if (saturate) {  // row 0 x column 0 overflows: 32 * 128 * 128 + c
    for (int j = 0; j < k; ++j) a[j] = -128, b[j * 8] = -128;
    c[0] = 0x7ffff000;
  }
  std::vector<uint32_t> ac(a.begin(), a.end()), bc(b.begin(), b.end()), cc(c.begin(), c.end());
  std::vector<uint32_t> ar = pack(ac, k, a_at, m * k / 32, 8), br = pack(bc, 8, b_at, 8 * k / 32, 8), cr = pack(cc, 8, c_frag, m / 4, 32);
  uint32_t *da = to_device(ar), *db = to_device(br), *dc = to_device(cr), *dd = to_device(std::vector<uint32_t>(cr.size(), 0));
  kernel<<<1, 32>>>(da, db, dc, dd);
  std::vector<uint32_t> dr = from_device(dd, cr.size());
  int bad = 0;
  for (int l = 0; l < 32; ++l)
    for (int i = 0; i < m / 4; ++i) {
      Place p = c_frag(l, i);
      long long expected = c[p.row * 8 + p.col];
      for (int j = 0; j < k; ++j) expected += (long long)a[p.row * k + j] * b[j * 8 + p.col];
      if (saturate && expected > 0x7fffffffll) expected = 0x7fffffffll;
      const int got = (int)dr[i * 32 + l];
      if (got != (int)expected && bad++ < 4) printf("%s: D[%d][%d] = %d, expected %lld\n", name, p.row, p.col, got, expected);
    }
  printf("%s: %s\n", name, bad ? "FAIL" : "ok");
  failures += bad != 0;
}

static void f64_case() {
  std::vector<double> a(8 * 4), b(4 * 8), c(8 * 8);
  for (auto& x : a) x = next_int(-1000, 1000) / 64.0;
  for (auto& x : b) x = next_int(-1000, 1000) / 64.0;
  for (auto& x : c) x = next_int(-1000, 1000) / 8.0;
  std::vector<double> ar(32), br(32), cr(64);
  for (int l = 0; l < 32; ++l) {
    ar[l] = a[(l / 4) * 4 + l % 4];  // a0: row g, column t
    br[l] = b[(l % 4) * 8 + l / 4];  // b0: row t, column g
    for (int i = 0; i < 2; ++i) cr[i * 32 + l] = c[c_frag(l, i).row * 8 + c_frag(l, i).col];
  }
  double *da = to_device(ar), *db = to_device(br), *dc = to_device(cr), *dd = to_device(std::vector<double>(64, 0));
  f64_884<<<1, 32>>>(da, db, dc, dd);
  std::vector<double> dr = from_device(dd, 64);
  int bad = 0;
  for (int l = 0; l < 32; ++l)
    for (int i = 0; i < 2; ++i) {
      Place p = c_frag(l, i);
      double expected = c[p.row * 8 + p.col];
      for (int j = 0; j < 4; ++j) expected += a[p.row * 4 + j] * b[j * 8 + p.col];  // exact: few bits
      if (dr[i * 32 + l] != expected && bad++ < 4) printf("f64_884: D[%d][%d] = %g, expected %g\n", p.row, p.col, dr[i * 32 + l], expected);
    }
  printf("f64_884: %s\n", bad ? "FAIL" : "ok");
  failures += bad != 0;
}

int main() {
  float_case("f16_f32_16816", f16_f32_16816, 16, F16, a_16816, b_16816, false);
  float_case("f16_f16_16816", f16_f16_16816, 16, F16, a_16816, b_16816, true);
  float_case("bf16_f32_16816", bf16_f32_16816, 16, BF16, a_16816, b_16816, false);
  float_case("f16_f32_1688", f16_f32_1688, 8, F16, a_1688, b_1688, false);
  float_case("f16_f16_1688", f16_f16_1688, 8, F16, a_1688, b_1688, true);
  float_case("f16_f32_16816_zero_c", f16_f32_16816_zero_c, 16, F16, a_16816, b_16816, false, true);
  float_case("tf32_1688", tf32_1688, 8, TF32, a_tf32_1688, b_tf32_1688, false);
  float_case("tf32_1684", tf32_1684, 4, TF32, a_tf32_1684, b_tf32_1684, false);
  int_case("s8_16832_sat", s8_16832_sat, 16, 32, false, a_16832, b_16832, true);
  int_case("u8s8_16832", u8s8_16832, 16, 32, true, a_16832, b_16832, false);
  int_case("s8_8816", s8_8816, 8, 16, false, a_8816, b_8816, false);
  f64_case();
  printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
