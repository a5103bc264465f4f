// Packed 16-bit float arithmetic from nvcc 11.8: HADD2/HMUL2/HFMA2 (f16: plain, .SAT; bf16:
// .BF16_V2), HMNMX2, HSET2.BF and HSETP2 compares and HADD2.F32 (__half2float) on NaN, Inf, -0,
// denormal, overflow and tie values; the CPU check rounds the exact results to f16/bf16 itself.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#ifndef __HIPCC__
#include <cuda_bf16.h>
#endif
#include <cuda_fp16.h>

// HIP 5.2 has neither bf16 nor __hmin2/__hmax2; the HIP translation supplies only the host code
// (the device code is nvcc's SASS, lifted), so there the kernel body is left out.
#define PASTE(a, b) a##b
#define BF16X2 PASTE(__nv_, bfloat162)
#define HMIN2 PASTE(__hmi, n2)
#define HMAX2 PASTE(__hma, x2)
#define HMAX2_NAN PASTE(__hm, ax2_nan)
#define HMIN2_NAN PASTE(__hm, in2_nan)
#define HFMA2_RELU PASTE(__hfma2, _relu)

const int kOut = 19;  // strides the compiler multiplies with IMAD (not a shift or LEA)
const int kSide = 11;

__global__ void halves(const __half2* a, const __half2* b, const __half2* c, const unsigned* p, const unsigned* q,
                       __half2* out, unsigned* bout, float* fout, int n) {
#ifndef __HIPCC__
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half2 x = a[i], y = b[i], z = c[i];
  __half2* o = out + i * kOut;
  o[0] = __hadd2(x, y);
  o[1] = __hsub2(x, y);
  o[2] = __hmul2(x, y);
  o[3] = __hfma2(x, y, z);
  o[4] = __hmul2_sat(x, y);
  o[5] = __hfma2_sat(x, y, z);
  o[6] = HMIN2(x, y);
  o[7] = HMAX2(x, y);
  o[8] = __hlt2(x, y);
  o[9] = __hgeu2(x, y);
  o[10] = __hne2(x, y);
  o[11] = __hisnan2(x);
  o[12] = __hneg2(x);
  o[13] = HMAX2_NAN(x, y);
  o[14] = HMIN2_NAN(x, y);
  o[15] = HFMA2_RELU(x, y, z);
  const BF16X2* pb = reinterpret_cast<const BF16X2*>(p);
  const BF16X2* qb = reinterpret_cast<const BF16X2*>(q);
  BF16X2* bo = reinterpret_cast<BF16X2*>(bout);
  BF16X2 u = pb[i], v = qb[i];
  bo[i * kSide + 0] = __hfma2(u, v, u);
  bo[i * kSide + 1] = HMIN2(u, v);
  bo[i * kSide + 2] = HMAX2(u, v);
  fout[i * kSide + 0] = __low2float(x);
  fout[i * kSide + 1] = __high2float(y);
  fout[i * kSide + 2] = __low2float(x) + __high2float(z);
  // Scalar compares of both halves at once: HSETP2 with two predicate outputs, guarding stores.
  fout[i * kSide + 3] = 0.0f;
  fout[i * kSide + 4] = 0.0f;
  if (__hlt(__low2half(x), __low2half(y))) fout[i * kSide + 3] = 1.0f;
  if (__hgeu(__high2half(x), __high2half(y))) fout[i * kSide + 4] = 1.0f;
#endif
}

// ---- the CPU's reference ----
struct Format { int fraction_bits, exponent_bits; };
const Format kF16 = {10, 5}, kBF16 = {7, 8};
static double decode(unsigned h, Format f) {
  const int bias = (1 << (f.exponent_bits - 1)) - 1;
  const unsigned e = (h >> f.fraction_bits) & ((1u << f.exponent_bits) - 1), m = h & ((1u << f.fraction_bits) - 1);
  const double sign = (h >> (f.fraction_bits + f.exponent_bits)) & 1 ? -1.0 : 1.0;
  if (e == (1u << f.exponent_bits) - 1) return m ? NAN : sign * INFINITY;
  if (e == 0) return sign * std::ldexp((double)m, 1 - bias - f.fraction_bits);
  return sign * std::ldexp((double)(m | (1u << f.fraction_bits)), (int)e - bias - f.fraction_bits);
}
// v (exact in a double) to nearest even, denormals kept, overflow to Inf.
static unsigned encode(double v, Format f) {
  const int bias = (1 << (f.exponent_bits - 1)) - 1;
  const unsigned sign = std::signbit(v) ? 1u << (f.fraction_bits + f.exponent_bits) : 0;
  const unsigned inf = ((1u << f.exponent_bits) - 1) << f.fraction_bits;
  if (std::isnan(v)) return 0x7fff;
  double a = std::fabs(v);
  if (std::isinf(a)) return sign | inf;
  if (a == 0) return sign;
  int e;
  std::frexp(a, &e);
  int exponent = e - 1 > 1 - bias ? e - 1 : 1 - bias;
  double ulp = std::ldexp(1.0, exponent - f.fraction_bits);
  double k = std::nearbyint(a / ulp);
  double r = k * ulp;
  if (r == 0) return sign;  // below half the smallest denormal
  std::frexp(r, &e);
  exponent = e - 1;
  if (exponent > bias) return sign | inf;
  if (exponent < 1 - bias) return sign | (unsigned)(r / std::ldexp(1.0, 1 - bias - f.fraction_bits));
  return sign | ((unsigned)(exponent + bias) << f.fraction_bits) | ((unsigned)(r / std::ldexp(1.0, exponent - f.fraction_bits)) & ((1u << f.fraction_bits) - 1));
}
static unsigned saturate(unsigned h, Format f) {
  double v = decode(h, f);
  if (std::isnan(v) || v <= 0) return (v == 0 && std::signbit(v)) ? h : 0;  // -0 stays
  return v > 1 ? encode(1.0, f) : h;
}
static unsigned minmax(unsigned x, unsigned y, Format f, bool min) {
  double a = decode(x, f), b = decode(y, f);
  if (std::isnan(a) && std::isnan(b)) return 0x7fff;
  if (std::isnan(a)) return y;
  if (std::isnan(b)) return x;
  if (a == b) return min ? (std::signbit(a) ? x : y) : (std::signbit(a) ? y : x);
  return (a < b) == min ? x : y;
}
static bool same16(unsigned got, unsigned want, Format f) {
  return (std::isnan(decode(got, f)) && std::isnan(decode(want, f))) || got == want;
}

int main() {
  // Lanes: low half, high half of each element.
  const unsigned short xs[][2] = {{0x3c00, 0x4000}, {0x3e00, 0xc080}, {0x7bff, 0x7bff}, {0x0001, 0x8001}, {0x7e00, 0x3c00},
                                  {0x7c00, 0xfc00}, {0x8000, 0x0000}, {0x3555, 0x2e66}, {0x3c01, 0x3c00}, {0x5640, 0xb800}};
  const unsigned short ys[][2] = {{0x3c00, 0x3c00}, {0xbe00, 0x4080}, {0x4000, 0x7bff}, {0x3c00, 0x0001}, {0x3c00, 0x7e00},
                                  {0x7c00, 0x0000}, {0x0000, 0x8000}, {0x4200, 0x4900}, {0x3c01, 0x1000}, {0x1400, 0x3800}};
  const unsigned short zs[][2] = {{0x0000, 0xbc00}, {0x3c00, 0x3c00}, {0xfbff, 0x0000}, {0x0001, 0x8000}, {0x3c00, 0x3c00},
                                  {0x3c00, 0x3c00}, {0x8000, 0x8000}, {0x3c00, 0xbc00}, {0xbc00, 0x1000}, {0x0000, 0x3c00}};
  const unsigned short ps[][2] = {{0x3f80, 0x4000}, {0x3f81, 0xbf81}, {0x7f7f, 0x0001}, {0x7fc0, 0x3f80}, {0x8000, 0x0000},
                                  {0x4049, 0xc2f7}, {0x3e80, 0x3c23}, {0x7f80, 0xff80}, {0x0080, 0x3f80}, {0x4120, 0x3dcc}};
  const unsigned short qs[][2] = {{0x3f80, 0x3f80}, {0x3f81, 0x3f81}, {0x4000, 0x3f80}, {0x3f80, 0x7fc0}, {0x0000, 0x8000},
                                  {0x3f00, 0x3f00}, {0x4300, 0x4780}, {0x3f80, 0x3f80}, {0x3f00, 0x0000}, {0x3dcc, 0x4120}};
  const int n = 10;
  unsigned hx[n], hy[n], hz[n], hp[n], hq[n];
  for (int i = 0; i < n; ++i) {
    hx[i] = xs[i][0] | (unsigned)xs[i][1] << 16;
    hy[i] = ys[i][0] | (unsigned)ys[i][1] << 16;
    hz[i] = zs[i][0] | (unsigned)zs[i][1] << 16;
    hp[i] = ps[i][0] | (unsigned)ps[i][1] << 16;
    hq[i] = qs[i][0] | (unsigned)qs[i][1] << 16;
  }
  __half2 *da, *db, *dc, *dout;
  unsigned *dp, *dq, *dbout;
  float* dfout;
  cudaMalloc(&da, n * 4); cudaMalloc(&db, n * 4); cudaMalloc(&dc, n * 4); cudaMalloc(&dp, n * 4); cudaMalloc(&dq, n * 4);
  cudaMalloc(&dout, n * kOut * 4); cudaMalloc(&dbout, n * kSide * 4); cudaMalloc(&dfout, n * kSide * 4);
  cudaMemcpy(da, hx, n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(db, hy, n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dc, hz, n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dp, hp, n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dq, hq, n * 4, cudaMemcpyHostToDevice);
  halves<<<1, 32>>>(da, db, dc, dp, dq, dout, dbout, dfout, n);
  unsigned out[n * kOut], bout[n * kSide];
  float fout[n * kSide];
  cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
  cudaMemcpy(bout, dbout, sizeof bout, cudaMemcpyDeviceToHost);
  cudaMemcpy(fout, dfout, sizeof fout, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    for (int lane = 0; lane < 2; ++lane) {
      const unsigned x = lane ? xs[i][1] : xs[i][0], y = lane ? ys[i][1] : ys[i][0], z = lane ? zs[i][1] : zs[i][0];
      const double a = decode(x, kF16), b = decode(y, kF16), c = decode(z, kF16);
      unsigned want[kOut];
      want[0] = encode(a + b, kF16);
      want[1] = encode(a - b, kF16);
      want[2] = encode(a * b, kF16);
      want[3] = encode(std::fma(a, b, c), kF16);
      want[4] = saturate(encode(a * b, kF16), kF16);
      want[5] = saturate(encode(std::fma(a, b, c), kF16), kF16);
      want[6] = minmax(x, y, kF16, true);
      want[7] = minmax(x, y, kF16, false);
      want[8] = a < b ? 0x3c00 : 0;
      want[9] = !(a < b) ? 0x3c00 : 0;  // GEU: greater, equal or unordered
      want[10] = a != b && !std::isnan(a) && !std::isnan(b) ? 0x3c00 : 0;
      want[11] = std::isnan(a) ? 0x3c00 : 0;
      want[12] = x ^ 0x8000;
      // .NAN forms: a NaN operand gives the canonical NaN; .RELU: max(fma, +0), NaN canonical.
      want[13] = std::isnan(a) || std::isnan(b) ? 0x7fff : minmax(x, y, kF16, false);
      want[14] = std::isnan(a) || std::isnan(b) ? 0x7fff : minmax(x, y, kF16, true);
      const unsigned fused = encode(std::fma(a, b, c), kF16);
      want[15] = std::isnan(decode(fused, kF16)) ? 0x7fff : (fused & 0x8000) ? 0 : fused;
      for (int k = 0; k < 16; ++k) {
        const unsigned got = (out[i * kOut + k] >> (16 * lane)) & 0xffff;
        if (!same16(got, want[k], kF16) && bad++ < 30) printf("mismatch: f16 element %d lane %d output %d: got 0x%04x want 0x%04x\n", i, lane, k, got, want[k]);
      }
      const unsigned u = lane ? ps[i][1] : ps[i][0], v = lane ? qs[i][1] : qs[i][0];
      const double pu = decode(u, kBF16), qv = decode(v, kBF16);
      const unsigned bwant[3] = {encode(std::fma(pu, qv, pu), kBF16), minmax(u, v, kBF16, true), minmax(u, v, kBF16, false)};
      for (int k = 0; k < 3; ++k) {
        const unsigned got = (bout[i * kSide + k] >> (16 * lane)) & 0xffff;
        if (!same16(got, bwant[k], kBF16) && bad++ < 30) printf("mismatch: bf16 element %d lane %d output %d: got 0x%04x want 0x%04x\n", i, lane, k, got, bwant[k]);
      }
    }
    const double fwant[5] = {decode(xs[i][0], kF16), decode(ys[i][1], kF16), (double)(float)(decode(xs[i][0], kF16) + decode(zs[i][1], kF16)),
                             decode(xs[i][0], kF16) < decode(ys[i][0], kF16) ? 1.0 : 0.0,
                             !(decode(xs[i][1], kF16) < decode(ys[i][1], kF16)) ? 1.0 : 0.0};
    for (int k = 0; k < 5; ++k) {
      const bool ok = (std::isnan(fout[i * kSide + k]) && std::isnan(fwant[k])) || (double)fout[i * kSide + k] == fwant[k];
      if (!ok && bad++ < 30) printf("mismatch: f32 element %d output %d: got %a want %a\n", i, k, fout[i * kSide + k], fwant[k]);
    }
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
