// Conversions between floats and integers and between float widths (F2I, I2F/I2FP, F2F, F2FP,
// FRND.F64) on NaN, Inf, out-of-range, negative, tie and denormal values; the CPU check applies
// PTX cvt's rules (NaN to 0, saturation at the integer limits, IEEE rounding) computed here.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cuda_fp16.h>

// Directed-rounding conversions have no HIP equivalent; the HIP translation supplies only the host
// code (the device code is nvcc's SASS, lifted), so its kernel body may differ.
#ifdef __HIPCC__
#define CONV(name, mode) name##_rn
#else
#define CONV(name, mode) name##_##mode
#endif

struct Ints {
  int s32, s32_floor, s32_rn;
  unsigned u32, u32_ceil;
  long long s64, s64_rn;
  unsigned long long u64;
  int d_s32;
  unsigned d_u32;
  long long d_s64;
  unsigned long long d_u64;
};
struct Floats {
  float from_s32, from_u32, from_s64, from_u64, from_s32_rz, from_u32_rd, from_s64_ru, from_double, from_double_rz;
  double from_float, d_from_s32, d_from_u32, d_from_s64, d_from_u64, floor_d, ceil_d, trunc_d, rint_d;
  unsigned packed_half, packed_half_rz;
};

__global__ void convert(const float* f, const double* d, const long long* n, Ints* out, Floats* fout, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  float x = f[i];
  double z = d[i];
  long long v = n[i];
  Ints r;
  r.s32 = (int)x;
  r.s32_floor = __float2int_rd(x);
  r.s32_rn = __float2int_rn(x);
  r.u32 = (unsigned)x;
  r.u32_ceil = __float2uint_ru(x);
  r.s64 = (long long)x;
  r.s64_rn = __float2ll_rn(x);
  r.u64 = (unsigned long long)x;
  r.d_s32 = (int)z;
  r.d_u32 = (unsigned)z;
  r.d_s64 = (long long)z;
  r.d_u64 = (unsigned long long)z;
  out[i] = r;
  Floats q;
  q.from_s32 = (float)(int)v;
  q.from_u32 = (float)(unsigned)v;
  q.from_s64 = (float)v;
  q.from_u64 = (float)(unsigned long long)v;
  q.from_s32_rz = CONV(__int2float, rz)((int)v);
  q.from_u32_rd = CONV(__uint2float, rd)((unsigned)v);
  q.from_s64_ru = CONV(__ll2float, ru)(v);
  q.from_double = (float)z;
  q.from_double_rz = CONV(__double2float, rz)(z);
  q.from_float = (double)x;
  q.d_from_s32 = (double)(int)v;
  q.d_from_u32 = (double)(unsigned)v;
  q.d_from_s64 = (double)v;
  q.d_from_u64 = (double)(unsigned long long)v;
  q.floor_d = floor(z);
  q.ceil_d = ceil(z);
  q.trunc_d = trunc(z);
  q.rint_d = rint(z);
  __half2 h = __floats2half2_rn(x, (float)z);
  q.packed_half = *reinterpret_cast<unsigned*>(&h);
  __half hz = __float2half_rz(x);
  q.packed_half_rz = *reinterpret_cast<unsigned short*>(&hz);
  fout[i] = q;
}

// ---- the CPU's reference: PTX cvt rules, written out ----
template <typename T>
T saturate(double r, double low, double high, T low_value, T high_value) {
  if (std::isnan(r)) return 0;
  if (r <= low) return low_value;
  if (r >= high) return high_value;
  return (T)r;
}
static unsigned bits(float f) { unsigned u; memcpy(&u, &f, 4); return u; }
static uint64_t bits(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }
static bool same(float a, float b) { return (std::isnan(a) && std::isnan(b)) || bits(a) == bits(b); }
static bool same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || bits(a) == bits(b); }
// An exact value (a double holding it, or a long double for 64-bit integers) rounded to a float
// toward zero (-1), down (-2), up (+2) or to nearest (0).
template <typename Exact, typename To>
To directed(Exact exact, int mode) {
  To r = (To)exact;  // to nearest
  if (std::isinf(r) || std::isnan(r)) {
    if (std::isinf(r) && !std::isinf(exact) && mode != 0) {  // overflow of a finite value
      bool toward_zero = mode == -1 || (mode == -2 && r > 0) || (mode == 2 && r < 0);
      if (toward_zero) r = std::nextafter(r, (To)0);
    }
    return r;
  }
  if ((Exact)r == exact) return r;
  bool above = (Exact)r > exact;
  if (mode == -1 && ((above && exact > 0) || (!above && exact < 0))) r = std::nextafter(r, (To)0);
  if (mode == -2 && above) r = std::nextafter(r, -INFINITY);
  if (mode == 2 && !above) r = std::nextafter(r, INFINITY);
  return r;
}
// f32 -> f16 bits, to nearest even or toward zero, through the exact value.
static unsigned short to_half(float x, bool toward_zero) {
  if (std::isnan(x)) return 0x7fff;
  unsigned short sign = std::signbit(x) ? 0x8000 : 0;
  double a = std::fabs((double)x);
  if (std::isinf(x)) return sign | 0x7c00;
  // The largest f16 is 65504; a tie at 65520 rounds to infinity.
  int e;
  std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
  int exponent = e - 1;
  if (exponent < -14) exponent = -14;  // denormals share the smallest normal's ulp
  double ulp = std::ldexp(1.0, exponent - 10);
  double q = a / ulp;  // exact (power-of-two scaling)
  double k = toward_zero ? std::floor(q) : std::nearbyint(q);
  double r = k * ulp;
  if (r > 65504.0) return toward_zero ? (sign | 0x7bff) : (sign | 0x7c00);
  if (r == 0) return sign;
  int re;
  std::frexp(r, &re);
  int rexp = re - 1;
  if (rexp < -14) return sign | (unsigned short)(r / std::ldexp(1.0, -24));
  unsigned mant = (unsigned)(r / std::ldexp(1.0, rexp - 10)) & 0x3ff;
  return sign | (unsigned short)((rexp + 15) << 10) | mant;
}

int main() {
  const float nan = std::nanf(""), inf = INFINITY;
  const float fs[] = {2.5f, -2.5f, 3.5f, -0.5f, nan, inf, -inf, 3e9f, -3e9f, 1e20f, -1e-40f, 65519.0f, 65520.0f, 0.1f, 1.5e-7f, -7.75f};
  const double ds[] = {2.5, -2.5, -2147483648.9, 4294967295.5, NAN, -INFINITY, 1e19, -1e19, 3e38, 1e39, -1e-310, 0.1, 1e-45, 9007199254740993.0, -0.5, 123456789.123};
  const long long ns[] = {0x7fffffff, -16777217, 16777217, 0xffffffffLL, -1, 0x7fffffffffffffffLL, (long long)0x8000000000000000ULL, 9007199254740993LL,
                          0x123456789LL, -(long long)0xfffffffffffLL, 0, 33554435, -33554435, 0x80000001LL, 7, 0x7ffffffffffffdffLL};
  const int n = 16;
  float* df; double* dd; long long* dn; Ints* di; Floats* dq;
  cudaMalloc(&df, sizeof fs); cudaMalloc(&dd, sizeof ds); cudaMalloc(&dn, sizeof ns);
  cudaMalloc(&di, n * sizeof(Ints)); cudaMalloc(&dq, n * sizeof(Floats));
  cudaMemcpy(df, fs, sizeof fs, cudaMemcpyHostToDevice);
  cudaMemcpy(dd, ds, sizeof ds, cudaMemcpyHostToDevice);
  cudaMemcpy(dn, ns, sizeof ns, cudaMemcpyHostToDevice);
  convert<<<1, 32>>>(df, dd, dn, di, dq, n);
  Ints ints[n]; Floats floats[n];
  cudaMemcpy(ints, di, sizeof ints, cudaMemcpyDeviceToHost);
  cudaMemcpy(floats, dq, sizeof floats, cudaMemcpyDeviceToHost);
  int bad = 0;
  auto check = [&](bool ok, int i, const char* what) {
    if (!ok && bad++ < 30) printf("mismatch: element %d %s (x=%g z=%g v=%lld)\n", i, what, fs[i], ds[i], ns[i]);
  };
  for (int i = 0; i < n; ++i) {
    const double x = fs[i], z = ds[i];
    const long long v = ns[i];
    const Ints& r = ints[i];
    check(r.s32 == saturate<int>(std::trunc(x), -2147483648.0, 2147483647.0, INT32_MIN, INT32_MAX), i, "s32");
    check(r.s32_floor == saturate<int>(std::floor(x), -2147483648.0, 2147483647.0, INT32_MIN, INT32_MAX), i, "s32 floor");
    check(r.s32_rn == saturate<int>(std::nearbyint(x), -2147483648.0, 2147483647.0, INT32_MIN, INT32_MAX), i, "s32 rn");
    check(r.u32 == saturate<unsigned>(std::trunc(x), 0.0, 4294967295.0, 0u, 0xffffffffu), i, "u32");
    check(r.u32_ceil == saturate<unsigned>(std::ceil(x), 0.0, 4294967295.0, 0u, 0xffffffffu), i, "u32 ceil");
    check(r.s64 == saturate<long long>(std::trunc(x), -0x1p63, 0x1p63, INT64_MIN, INT64_MAX), i, "s64");
    check(r.s64_rn == saturate<long long>(std::nearbyint(x), -0x1p63, 0x1p63, INT64_MIN, INT64_MAX), i, "s64 rn");
    check(r.u64 == saturate<unsigned long long>(std::trunc(x), 0.0, 0x1p64, 0ull, ~0ull), i, "u64");
    check(r.d_s32 == saturate<int>(std::trunc(z), -2147483648.0, 2147483647.0, INT32_MIN, INT32_MAX), i, "d s32");
    check(r.d_u32 == saturate<unsigned>(std::trunc(z), 0.0, 4294967295.0, 0u, 0xffffffffu), i, "d u32");
    check(r.d_s64 == saturate<long long>(std::trunc(z), -0x1p63, 0x1p63, INT64_MIN, INT64_MAX), i, "d s64");
    check(r.d_u64 == saturate<unsigned long long>(std::trunc(z), 0.0, 0x1p64, 0ull, ~0ull), i, "d u64");
    const Floats& q = floats[i];
    check(same(q.from_s32, directed<long double, float>((int)v, 0)), i, "f32 from s32");
    check(same(q.from_u32, directed<long double, float>((unsigned)v, 0)), i, "f32 from u32");
    check(same(q.from_s64, directed<long double, float>(v, 0)), i, "f32 from s64");
    check(same(q.from_u64, directed<long double, float>((unsigned long long)v, 0)), i, "f32 from u64");
    check(same(q.from_s32_rz, directed<long double, float>((int)v, -1)), i, "f32 from s32 rz");
    check(same(q.from_u32_rd, directed<long double, float>((unsigned)v, -2)), i, "f32 from u32 rd");
    check(same(q.from_s64_ru, directed<long double, float>(v, 2)), i, "f32 from s64 ru");
    check(same(q.from_double, (float)z), i, "f32 from f64");
    check(same(q.from_double_rz, directed<long double, float>(z, -1)), i, "f32 from f64 rz");
    check(same(q.from_float, x), i, "f64 from f32");
    check(same(q.d_from_s32, (double)(int)v), i, "f64 from s32");
    check(same(q.d_from_u32, (double)(unsigned)v), i, "f64 from u32");
    check(same(q.d_from_s64, directed<long double, double>(v, 0)), i, "f64 from s64");
    check(same(q.d_from_u64, directed<long double, double>((unsigned long long)v, 0)), i, "f64 from u64");
    check(same(q.floor_d, std::floor(z)), i, "floor");
    check(same(q.ceil_d, std::ceil(z)), i, "ceil");
    check(same(q.trunc_d, std::trunc(z)), i, "trunc");
    check(same(q.rint_d, std::nearbyint(z)), i, "rint");
    const unsigned want_pack = ((unsigned)to_half((float)z, false) << 16) | to_half(fs[i], false);
    check(q.packed_half == want_pack, i, "f16x2 pack");
    check((q.packed_half_rz & 0xffff) == to_half(fs[i], true), i, "f16 rz");
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
