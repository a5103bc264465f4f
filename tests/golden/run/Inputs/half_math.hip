// A HIP program full of half-precision and packed math (hip_fp16.h, short/char arithmetic, dot
// products, WMMA) that checks its own results on the host: tests/golden/run/half-math.test runs it
// on gpuport's emulator and asks --coverage which of its instructions are exact.
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

typedef _Float16 v16h __attribute__((ext_vector_type(16)));
typedef float v8f __attribute__((ext_vector_type(8)));
typedef _Float16 h2 __attribute__((ext_vector_type(2)));

__global__ void half_ops(const __half* a, const __half* b, __half* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half x = a[i], y = b[i];
  out[6 * i + 0] = __hfma(x, y, __hadd(x, y));
  out[6 * i + 1] = __hdiv(x, y);
  out[6 * i + 2] = hsqrt(__habs(x));
  out[6 * i + 3] = __hmul(__hsub(x, y), __float2half(0.25f));
  out[6 * i + 4] = hexp2(__hmul(x, __float2half(0.125f)));
  out[6 * i + 5] = __hlt(x, y) ? hfloor(x) : hceil(y);
}

__global__ void half2_ops(const __half2* a, const __half2* b, __half2* out, float* dot, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half2 x = a[i], y = b[i];
  out[2 * i + 0] = __hfma2(x, y, __hneg2(x));
  out[2 * i + 1] = __hmul2(__hadd2(x, y), __float2half2_rn(0.5f));
  h2 p = *reinterpret_cast<const h2*>(&a[i]), q = *reinterpret_cast<const h2*>(&b[i]);
  dot[i] = __builtin_amdgcn_fdot2(p, q, 1.0f, false);
}

__global__ void small_int_ops(const short* a, const signed char* c, short* out, int* dots, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  short x = a[i], y = a[(i + 1) % n];
  out[2 * i + 0] = static_cast<short>(x * y + (x >> 2));
  out[2 * i + 1] = x < y ? static_cast<short>(y - x) : static_cast<short>(c[i] * 3);
  int packed_a = *reinterpret_cast<const int*>(&c[(i / 4) * 4]), packed_b = static_cast<int>(0x01ff02fe);
  dots[i] = __builtin_amdgcn_sudot4(true, packed_a, true, packed_b, i, false);
}

// One 16x16x16 tile per wave32 wave: D = A * B + C, A and B row-major f16, C and D row-major f32.
__global__ void tile(const _Float16* a, const _Float16* b, const float* c, float* d) {
  const int lane = threadIdx.x;
  v16h fa, fb;
  for (int k = 0; k < 16; ++k) fa[k] = a[(lane % 16) * 16 + k], fb[k] = b[k * 16 + lane % 16];
  v8f acc;
  for (int v = 0; v < 8; ++v) acc[v] = c[(2 * v + lane / 16) * 16 + lane % 16];
  acc = __builtin_amdgcn_wmma_f32_16x16x16_f16_w32(fa, fb, acc);
  for (int v = 0; v < 8; ++v) d[(2 * v + lane / 16) * 16 + lane % 16] = acc[v];
}

static int failures = 0, checks = 0;
static void check(bool ok, const char* what, int i) {
  ++checks;
  if (!ok && failures++ < 10) std::printf("mismatch: %s at %d\n", what, i);
}
// Within `rel` of the value (or absolutely, below 1): rounding to half on the way is allowed for.
static bool near(float got, float want, float rel) { return std::fabs(got - want) <= rel * std::fmax(std::fabs(want), 1.0f); }

int main() {
  const int n = 1000;
  std::vector<__half> a(n), b(n), out(6 * n);
  for (int i = 0; i < n; ++i) a[i] = __float2half(0.01f * (i % 200) - 1.0f), b[i] = __float2half(0.5f + 0.003f * (i % 300));
  __half *da, *db, *dout;
  (void)hipMalloc(&da, n * sizeof(__half));
  (void)hipMalloc(&db, n * sizeof(__half));
  (void)hipMalloc(&dout, 6 * n * sizeof(__half));
  (void)hipMemcpy(da, a.data(), n * sizeof(__half), hipMemcpyHostToDevice);
  (void)hipMemcpy(db, b.data(), n * sizeof(__half), hipMemcpyHostToDevice);
  half_ops<<<(n + 127) / 128, 128>>>(da, db, dout, n);
  (void)hipMemcpy(out.data(), dout, 6 * n * sizeof(__half), hipMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) {
    const float x = __half2float(a[i]), y = __half2float(b[i]);
    const float want[6] = {x * y + (x + y), x / y, std::sqrt(std::fabs(x)), (x - y) * 0.25f, std::exp2(x * 0.125f), x < y ? std::floor(x) : std::ceil(y)};
    for (int k = 0; k < 6; ++k) check(near(__half2float(out[6 * i + k]), want[k], 2e-3f), "half_ops", 6 * i + k);
  }

  std::vector<__half2> a2(n), b2(n), out2(2 * n);
  std::vector<float> dot(n);
  for (int i = 0; i < n; ++i) a2[i] = __halves2half2(a[i], b[i]), b2[i] = __halves2half2(b[(i + 7) % n], a[(i + 3) % n]);
  __half2 *da2, *db2, *dout2;
  float* ddot;
  (void)hipMalloc(&da2, n * sizeof(__half2));
  (void)hipMalloc(&db2, n * sizeof(__half2));
  (void)hipMalloc(&dout2, 2 * n * sizeof(__half2));
  (void)hipMalloc(&ddot, n * sizeof(float));
  (void)hipMemcpy(da2, a2.data(), n * sizeof(__half2), hipMemcpyHostToDevice);
  (void)hipMemcpy(db2, b2.data(), n * sizeof(__half2), hipMemcpyHostToDevice);
  half2_ops<<<(n + 63) / 64, 64>>>(da2, db2, dout2, ddot, n);
  (void)hipMemcpy(out2.data(), dout2, 2 * n * sizeof(__half2), hipMemcpyDeviceToHost);
  (void)hipMemcpy(dot.data(), ddot, n * sizeof(float), hipMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) {
    const float xl = __low2float(a2[i]), xh = __high2float(a2[i]), yl = __low2float(b2[i]), yh = __high2float(b2[i]);
    check(near(__low2float(out2[2 * i]), xl * yl - xl, 2e-3f) && near(__high2float(out2[2 * i]), xh * yh - xh, 2e-3f), "hfma2", i);
    check(near(__low2float(out2[2 * i + 1]), (xl + yl) * 0.5f, 2e-3f) && near(__high2float(out2[2 * i + 1]), (xh + yh) * 0.5f, 2e-3f), "hmul2", i);
    check(near(dot[i], xl * yl + xh * yh + 1.0f, 1e-5f), "fdot2", i);
  }

  std::vector<short> s(n), sout(2 * n);
  std::vector<signed char> c(n);
  std::vector<int> dots(n);
  for (int i = 0; i < n; ++i) s[i] = static_cast<short>(i * 37 - 9000), c[i] = static_cast<signed char>(i * 13);
  short *ds, *dsout;
  signed char* dc;
  int* ddots;
  (void)hipMalloc(&ds, n * sizeof(short));
  (void)hipMalloc(&dsout, 2 * n * sizeof(short));
  (void)hipMalloc(&dc, n);
  (void)hipMalloc(&ddots, n * sizeof(int));
  (void)hipMemcpy(ds, s.data(), n * sizeof(short), hipMemcpyHostToDevice);
  (void)hipMemcpy(dc, c.data(), n, hipMemcpyHostToDevice);
  small_int_ops<<<(n + 255) / 256, 256>>>(ds, dc, dsout, ddots, n);
  (void)hipMemcpy(sout.data(), dsout, 2 * n * sizeof(short), hipMemcpyDeviceToHost);
  (void)hipMemcpy(dots.data(), ddots, n * sizeof(int), hipMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) {
    const short x = s[i], y = s[(i + 1) % n];
    check(sout[2 * i] == static_cast<short>(x * y + (x >> 2)), "short mad", i);
    check(sout[2 * i + 1] == (x < y ? static_cast<short>(y - x) : static_cast<short>(c[i] * 3)), "short select", i);
    const signed char bytes_b[4] = {-2, 2, -1, 1};  // 0x01ff02fe, lowest byte first
    int want = i;
    for (int k = 0; k < 4; ++k) want += c[(i / 4) * 4 + k] * bytes_b[k];
    check(dots[i] == want, "sudot4", i);
  }

  std::vector<_Float16> ma(256), mb(256);
  std::vector<float> mc(256), md(256);
  for (int i = 0; i < 256; ++i) ma[i] = static_cast<_Float16>((i * 7 % 9) - 4), mb[i] = static_cast<_Float16>((i * 5 % 7) - 3), mc[i] = i * 0.5f;
  _Float16 *dma, *dmb;
  float *dmc, *dmd;
  (void)hipMalloc(&dma, 256 * sizeof(_Float16));
  (void)hipMalloc(&dmb, 256 * sizeof(_Float16));
  (void)hipMalloc(&dmc, 256 * sizeof(float));
  (void)hipMalloc(&dmd, 256 * sizeof(float));
  (void)hipMemcpy(dma, ma.data(), 256 * sizeof(_Float16), hipMemcpyHostToDevice);
  (void)hipMemcpy(dmb, mb.data(), 256 * sizeof(_Float16), hipMemcpyHostToDevice);
  (void)hipMemcpy(dmc, mc.data(), 256 * sizeof(float), hipMemcpyHostToDevice);
  tile<<<1, 32>>>(dma, dmb, dmc, dmd);
  (void)hipMemcpy(md.data(), dmd, 256 * sizeof(float), hipMemcpyDeviceToHost);
  for (int m = 0; m < 16; ++m)
    for (int nn = 0; nn < 16; ++nn) {
      float want = mc[m * 16 + nn];
      for (int k = 0; k < 16; ++k) want += static_cast<float>(ma[m * 16 + k]) * static_cast<float>(mb[k * 16 + nn]);
      check(md[m * 16 + nn] == want, "wmma", m * 16 + nn);
    }

  std::printf("half_math: %s (%d checks, %d mismatches)\n", failures ? "FAIL" : "PASS", checks, failures);
  return failures ? 1 : 0;
}
