// Float compares, selects, min/max, rounding to integral, saturation and the MUFU intrinsics
// (fast-math __expf/__log2f/__sinf/__cosf/rsqrtf/__fdividef) on special and ordinary values; the
// CPU checks exact results bit for bit and the approximations against NVIDIA's documented bounds.
#include <cmath>
#include <cstdio>
#include <cstring>

const int kOut = 24;

// The directed-rounding intrinsics have no HIP equivalent; the HIP translation only supplies the
// host code here (the device code is nvcc's SASS, lifted), so its kernel body may differ.
#ifdef __HIPCC__
#define FMUL_RZ(a, b) ((a) * (b))
#define FADD_RD(a, b) ((a) + (b))
#define FMAF_RU(a, b, c) fmaf(a, b, c)
#else
#define ROUNDED(op, mode) __##op##_##mode
#define FMUL_RZ(a, b) ROUNDED(fmul, rz)(a, b)
#define FADD_RD(a, b) ROUNDED(fadd, rd)(a, b)
#define FMAF_RU(a, b, c) ROUNDED(fmaf, ru)(a, b, c)
#endif

__global__ void float_ops(const float* a, const float* b, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = a[i], y = b[i];
  float* o = out + i * kOut;
  o[0] = x < y ? 1.0f : 0.0f;
  o[1] = x <= y ? 1.0f : 0.0f;
  o[2] = x == y ? 1.0f : 0.0f;
  o[3] = x != y ? 1.0f : 0.0f;
  o[4] = !(x >= y) ? 1.0f : 0.0f;   // unordered-or-less
  o[5] = isnan(x) ? 1.0f : 0.0f;
  o[6] = fminf(x, y);
  o[7] = fmaxf(x, y);
  o[8] = floorf(x);
  o[9] = ceilf(x);
  o[10] = truncf(x);
  o[11] = rintf(x);
  o[12] = __saturatef(x);
  o[13] = x > y ? x : y * 2.0f;
  o[14] = __fdividef(x, y);
  o[15] = __expf(x);
  o[16] = __log2f(y);
  o[17] = __sinf(x);
  o[18] = __cosf(x);
  o[19] = rsqrtf(y);
  o[20] = FMUL_RZ(x, y);
  o[21] = FADD_RD(x, y);
  o[22] = FMAF_RU(x, y, 1.0f);
  o[23] = exp2f(x);
}

static float bits_to_float(unsigned u) { float f; memcpy(&f, &u, 4); return f; }
static unsigned float_bits(float f) { unsigned u; memcpy(&u, &f, 4); return u; }
static bool same(float got, float want) {  // bit-exact, any NaN for NaN
  return (std::isnan(got) && std::isnan(want)) || float_bits(got) == float_bits(want);
}
static bool close_rel(float got, double want, double rel, double abs_err) {
  if (std::isnan(want)) return std::isnan(got);
  if (std::isinf(want)) return got == (float)want;
  return std::fabs(got - want) <= rel * std::fabs(want) + abs_err;
}

int main() {
  const float nan = bits_to_float(0x7fc00000u), inf = bits_to_float(0x7f800000u);
  const float xs[] = {1.5f, -2.5f, 2.5f, 0.0f, -0.0f, nan, inf, -inf, 3e-39f, -3e-39f, 0.75f, 100.25f, -7.5f, 1e30f, 0.3f, -0.6f};
  const float ys[] = {2.0f, -2.5f, nan, -0.0f, 0.0f, 1.0f, 5.0f, -inf, 1e-39f, 2.0f, 0.5f, 3.0f, 0.125f, 7.0f, 1e-3f, 9.0f};
  const int n = 16;
  float *da, *db, *dout, out[n * kOut];
  cudaMalloc(&da, n * 4); cudaMalloc(&db, n * 4); cudaMalloc(&dout, n * kOut * 4);
  cudaMemcpy(da, xs, n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(db, ys, n * 4, cudaMemcpyHostToDevice);
  float_ops<<<1, 32>>>(da, db, dout, n);
  cudaMemcpy(out, dout, n * kOut * 4, cudaMemcpyDeviceToHost);
  int bad = 0;
  auto check = [&](bool ok, int i, int k, float got) {
    if (!ok && bad++ < 20) printf("mismatch: element %d output %d: x=%g y=%g got %.9g (0x%08x)\n", i, k, xs[i], ys[i], got, float_bits(got));
  };
  for (int i = 0; i < n; ++i) {
    const float x = xs[i], y = ys[i];
    const float* o = out + i * kOut;
    const float want_exact[] = {x < y ? 1.0f : 0.0f, x <= y ? 1.0f : 0.0f, x == y ? 1.0f : 0.0f, x != y ? 1.0f : 0.0f,
                                !(x >= y) ? 1.0f : 0.0f, std::isnan(x) ? 1.0f : 0.0f};
    for (int k = 0; k < 6; ++k) check(same(o[k], want_exact[k]), i, k, o[k]);
    // PTX min/max: one NaN gives the other operand; -0 below +0.
    float mn = std::isnan(x) ? y : std::isnan(y) ? x : (x == y ? (std::signbit(x) ? x : y) : (x < y ? x : y));
    float mx = std::isnan(x) ? y : std::isnan(y) ? x : (x == y ? (std::signbit(x) ? y : x) : (x > y ? x : y));
    check(same(o[6], mn), i, 6, o[6]);
    check(same(o[7], mx), i, 7, o[7]);
    check(same(o[8], std::floor(x)), i, 8, o[8]);
    check(same(o[9], std::ceil(x)), i, 9, o[9]);
    check(same(o[10], std::trunc(x)), i, 10, o[10]);
    check(same(o[11], std::nearbyint(x)), i, 11, o[11]);
    // nvcc's __saturatef is FADD.SAT d, RZ, x: +0 + x, so -0 saturates to +0.
    float sat = std::isnan(x) || x <= 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
    check(same(o[12], sat), i, 12, o[12]);
    check(same(o[13], x > y ? x : y * 2.0f), i, 13, o[13]);
    // Approximations, bounds from the CUDA Programming Guide (intrinsic functions) with the
    // MUFU units' flush of denormal operands; only on operands inside the documented ranges.
    if (std::isfinite(x) && std::isfinite(y) && std::fabs(y) > 1e-30f && std::fabs(y) < 1e30f && std::fabs(x) > 1e-30f)
      check(close_rel(o[14], (double)x / y, 3 * 0x1p-23, 0), i, 14, o[14]);
    if (std::fabs(x) < 80 && std::fabs(x) > 1e-30f) check(close_rel(o[15], std::exp((double)x), (2 + std::floor(std::fabs(1.173 * x))) * 0x1p-23, 0), i, 15, o[15]);
    if (y > 1e-30f && std::isfinite(y)) check(close_rel(o[16], std::log2((double)y), 2 * 0x1p-23, 0x1p-21), i, 16, o[16]);
    if (std::fabs(x) <= 3.14159f) {
      check(close_rel(o[17], std::sin((double)x), 0, 0x1p-20), i, 17, o[17]);
      check(close_rel(o[18], std::cos((double)x), 0, 0x1p-20), i, 18, o[18]);
    }
    if (y > 1e-30f && std::isfinite(y)) check(close_rel(o[19], 1 / std::sqrt((double)y), 2 * 0x1p-23, 0), i, 19, o[19]);
    if (std::fabs(x) < 100 && std::fabs(x) > 1e-30f) check(close_rel(o[23], std::exp2((double)x), 2 * 0x1p-23, 0), i, 23, o[23]);
  }
  // The directed roundings, against the exact values worked out by hand: x = 0.3f, y = 1e-3f.
  {
    const float* o = out + 14 * kOut;
    // 0.3f * 1e-3f = 3.0000001e-4 exactly 0.000300000015...; RZ keeps the truncation.
    const double exact_product = (double)0.3f * (double)1e-3f;
    float rz = (float)exact_product;
    if ((double)rz > exact_product) rz = std::nextafter(rz, 0.0f);
    check(same(o[20], rz), 14, 20, o[20]);
    const double exact_sum = (double)0.3f + (double)1e-3f;
    float rd = (float)exact_sum;
    if ((double)rd > exact_sum) rd = std::nextafter(rd, -1.0f);
    check(same(o[21], rd), 14, 21, o[21]);
    const double exact_fma = exact_product + 1.0;  // exact in a double: 2^-1 ... 2^-53 span
    float ru = (float)exact_fma;
    if ((double)ru < exact_fma) ru = std::nextafter(ru, 2.0f);
    check(same(o[22], ru), 14, 22, o[22]);
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
