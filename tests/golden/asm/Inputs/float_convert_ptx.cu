// Narrow and 16-bit conversions reached through PTX cvt in nvcc 11.8 code: F2I to s8/u8/s16 (and
// F2IP.U8 for the saturating u8 form on sm_86+), F2I.FTZ and FRND.FTZ, F2F between f16 and f64,
// I2F from u8 and s16; the CPU check applies PTX cvt's rules (NaN to 0, saturation, rounding,
// flush of denormal inputs under .ftz) written out in the program.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

const int kOut = 11;  // a stride the compiler multiplies with IMAD (not a shift or LEA)

// The PTX by name; the HIP translation supplies only the host code (the device code is nvcc's SASS,
// lifted), so there the kernel body is left out.
#define CVT(instruction, out_constraint, out, in_constraint, in) \
  asm(#instruction " %0, %1;" : out_constraint(out) : in_constraint(in))

__global__ void narrow(const float* a, const double* d, const int* n, unsigned* out, unsigned short* out16, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  unsigned r[kOut] = {};
#ifndef __HIPCC__
  float x = a[i];
  double z = d[i];
  int v = n[i];
  unsigned short s = 0, h = 0;
  float f = 0;
  double g = 0;
  CVT(cvt.rni.sat.u8.f32, "=r", r[0], "f", x);
  CVT(cvt.rni.s8.f32, "=r", r[1], "f", x);
  CVT(cvt.rzi.s16.f32, "=h", s, "f", x);
  out16[i * kOut + 0] = s;  // 16-bit results stored as such
  CVT(cvt.rmi.ftz.s32.f32, "=r", r[3], "f", x);
  CVT(cvt.rpi.ftz.f32.f32, "=f", f, "f", x);
  r[4] = __float_as_uint(f);
  CVT(cvt.rn.f16.f64, "=h", h, "d", z);
  out16[i * kOut + 1] = h;
  CVT(cvt.f64.f16, "=d", g, "h", h);
  r[6] = __float_as_uint((float)g);
  CVT(cvt.rz.f32.u8, "=f", f, "r", v);
  r[7] = __float_as_uint(f);
  unsigned short vs = (unsigned short)v;
  CVT(cvt.rn.f32.s16, "=f", f, "h", vs);
  r[8] = __float_as_uint(f);
  CVT(cvt.rzi.u8.f32, "=r", r[9], "f", x);
  CVT(cvt.rni.u16.f32, "=h", s, "f", x);
  out16[i * kOut + 2] = s;
#endif
  for (int k = 0; k < kOut; ++k) out[i * kOut + k] = r[k];
}

static unsigned bits(float f) { unsigned u; memcpy(&u, &f, 4); return u; }
static double saturate(double r, double low, double high) { return std::isnan(r) ? 0 : r < low ? low : r > high ? high : r; }
// f64 -> f16 bits to nearest even (an exact double in, denormals kept, overflow to Inf, NaN 0x7fff).
static unsigned to_half(double v) {
  if (std::isnan(v)) return 0x7fff;
  unsigned sign = std::signbit(v) ? 0x8000 : 0;
  double a = std::fabs(v);
  if (std::isinf(a)) return sign | 0x7c00;
  if (a == 0) return sign;
  int e;
  std::frexp(a, &e);
  int exponent = e - 1 < -14 ? -14 : e - 1;
  double ulp = std::ldexp(1.0, exponent - 10);
  double r = std::nearbyint(a / ulp) * ulp;
  if (r == 0) return sign;
  if (r >= 65520.0) return sign | 0x7c00;
  std::frexp(r, &e);
  if (e - 1 < -14) return sign | (unsigned)(r / std::ldexp(1.0, -24));
  return sign | (unsigned)((e - 1 + 15) << 10) | ((unsigned)(r / std::ldexp(1.0, e - 1 - 10)) & 0x3ff);
}
static double from_half(unsigned h) {
  double sign = h & 0x8000 ? -1 : 1;
  unsigned e = (h >> 10) & 0x1f, m = h & 0x3ff;
  if (e == 31) return m ? NAN : sign * INFINITY;
  return e ? sign * std::ldexp(1024.0 + m, (int)e - 25) : sign * std::ldexp((double)m, -24);
}

int main() {
  const float xs[] = {2.5f, -2.5f, 300.0f, -200.0f, NAN, INFINITY, -INFINITY, 127.5f, 128.5f, -129.5f, -1e-40f, 1e-40f, 40000.0f, -0.5f, 255.5f, 65535.7f};
  const double ds[] = {1.0 / 3.0, 65519.99, 65520.0, -1e-8, 5.9604644775390625e-08, 2.98e-08, NAN, -INFINITY, 0.1, 1e300, -0.0, 1000.5, 2049.0, 2051.0, 6.1e-05, 123.456};
  const int ns[] = {0, 255, 256, 0x1ff, -1, 0x12345678, 0x8000, 0x7fff, (int)0xffff8000, 200, 77, 0x100, 3, 0x80, 0x7f, 1};
  const int n = 16;
  float* da; double* dd; int* dn; unsigned* dout; unsigned out[n * kOut];
  unsigned short* dout16; unsigned short out16[n * kOut];
  cudaMalloc(&da, sizeof xs); cudaMalloc(&dd, sizeof ds); cudaMalloc(&dn, sizeof ns); cudaMalloc(&dout, sizeof out);
  cudaMalloc(&dout16, sizeof out16);
  cudaMemcpy(da, xs, sizeof xs, cudaMemcpyHostToDevice);
  cudaMemcpy(dd, ds, sizeof ds, cudaMemcpyHostToDevice);
  cudaMemcpy(dn, ns, sizeof ns, cudaMemcpyHostToDevice);
  narrow<<<1, 32>>>(da, dd, dn, dout, dout16, n);
  cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
  cudaMemcpy(out16, dout16, sizeof out16, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    const double x = xs[i], flushed = std::fabs(x) < 0x1p-126 ? std::copysign(0.0, x) : x;  // sign-preserving flush
    unsigned want[kOut];
    want[0] = (unsigned)saturate(std::nearbyint(x), 0, 255);
    want[1] = (unsigned)(int)saturate(std::nearbyint(x), -128, 127);
    want[2] = (unsigned short)(short)saturate(std::trunc(x), -32768, 32767);
    want[3] = (unsigned)(int)saturate(std::floor(flushed), -2147483648.0, 2147483647.0);
    want[4] = std::isnan(x) ? 0x7fffffffu : bits((float)std::ceil(flushed));
    want[5] = to_half(ds[i]);
    want[6] = std::isnan(from_half(want[5])) ? 0x7fffffffu : bits((float)from_half(want[5]));
    want[7] = bits((float)(ns[i] & 0xff));
    want[8] = bits((float)(short)(ns[i] & 0xffff));
    want[9] = (unsigned)saturate(std::trunc(x), 0, 255);
    want[10] = (unsigned)saturate(std::nearbyint(x), 0, 65535);
    for (int k = 0; k < kOut; ++k) {
      unsigned got = out[i * kOut + k];
      if (k == 2) got = out16[i * kOut + 0];
      if (k == 5) got = out16[i * kOut + 1];
      if (k == 10) got = out16[i * kOut + 2];
      // A NaN from f16 -> f64 -> f32 is any NaN.
      const bool ok = got == want[k] || (k == 6 && want[k] == 0x7fffffffu && (got & 0x7fffffff) > 0x7f800000u);
      if (!ok && bad++ < 30) printf("mismatch: element %d output %d: got 0x%08x want 0x%08x\n", i, k, got, want[k]);
    }
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
