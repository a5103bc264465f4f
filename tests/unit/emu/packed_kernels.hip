// Kernels of tests/unit/emu_packed_test.cc: half-precision, packed, short/char, dot-product and
// WMMA code as clang-19 compiles it for gfx1100 (wave32 and wave64). Every result is checked on the
// CPU against a reference computed in float/double and rounded to half by the test.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

typedef _Float16 half2v __attribute__((ext_vector_type(2)));
typedef short short2v __attribute__((ext_vector_type(2)));

// Scalar __half arithmetic, rounding functions and comparisons.
extern "C" __global__ void half_scalar(const __half* a, const __half* b, const __half* c, __half* out, int* flags, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half x = a[i], y = b[i], z = c[i];
  __half* o = out + 24 * i;
  o[0] = __hadd(x, y);
  o[1] = __hsub(x, y);
  o[2] = __hmul(x, y);
  o[3] = __hfma(x, y, z);
  o[4] = __hneg(x);
  o[5] = __habs(x);
  o[6] = __hgt(x, y) ? x : y;
  o[7] = __hlt(x, y) ? x : y;
  o[8] = hfloor(x);
  o[9] = hceil(x);
  o[10] = htrunc(x);
  o[11] = hrint(x);
  o[12] = __hdiv(x, y);
  o[13] = hsqrt(__habs(x));
  o[14] = hrcp(x);
  o[15] = hrsqrt(__habs(x));
  o[16] = hexp2(x);
  o[17] = hlog2(__habs(x));
  o[18] = hlog10(__habs(x));  // not hsin: Debian's ROCm 5.2 __ocml_sin_f16 returns NaN for every finite input
  o[19] = hcos(x);
  o[20] = hexp(x);
  o[21] = hlog(__habs(x));
  o[22] = __hmul(__hadd(x, __float2half(0.5f)), __float2half(4.0f));
  o[23] = __hfma(x, __float2half(-2.0f), __float2half(1.0f));
  flags[i] = __heq(x, y) | __hne(x, y) << 1 | __hle(x, y) << 2 | __hge(x, y) << 3 | __hisnan(x) << 4 | __hisinf(x) << 5 |
             __hequ(x, y) << 6 | __hltu(x, y) << 7;
}

// Packed __half2 arithmetic (VOP3P) and the conversions between half2 and float2.
extern "C" __global__ void half_packed(const __half2* a, const __half2* b, const __half2* c, __half2* out, float2* f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half2 x = a[i], y = b[i], z = c[i];
  __half2* o = out + 10 * i;
  o[0] = __hadd2(x, y);
  o[1] = __hsub2(x, y);
  o[2] = __hmul2(x, y);
  o[3] = __hfma2(x, y, z);
  o[4] = __hneg2(x);
  o[5] = __habs2(x);
  o[6] = __hfma2(x, __float2half2_rn(2.0f), __float2half2_rn(-1.0f));
  o[7] = __halves2half2(__high2half(x), __low2half(y));
  o[8] = __float22half2_rn(make_float2(__low2float(x) * 3.0f, __high2float(y) + 0.25f));
  o[9] = __hmul2(__hadd2(x, y), z);
  f[i] = __half22float2(x);
}

// Conversions between half, float and the integer types.
extern "C" __global__ void half_convert(const float* f, const __half* h, const short* s, const unsigned short* u, __half* oh, float* of,
                                        int* oi, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  oh[4 * i + 0] = __float2half_rn(f[i]);
  oh[4 * i + 1] = __short2half_rn(s[i]);
  oh[4 * i + 2] = __ushort2half_rn(u[i]);
  oh[4 * i + 3] = __int2half_rn(s[i] * 7);
  of[i] = __half2float(h[i]);
  oi[4 * i + 0] = __half2short_rz(h[i]);
  oi[4 * i + 1] = __half2ushort_rz(h[i]);
  oi[4 * i + 2] = __half2int_rz(h[i]);
  oi[4 * i + 3] = static_cast<int>(static_cast<float>(h[i]) * 2.0f);
}

// Mixed precision: f16 inputs into f32 fused multiply-adds, f32 results rounded to f16.
extern "C" __global__ void half_mixed(const __half* a, const __half* b, const float* c, float* of, __half* oh, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = __half2float(a[i]), y = __half2float(b[i]);
  of[2 * i + 0] = __fmaf_rn(x, y, c[i]);
  of[2 * i + 1] = __fmaf_rn(-x, fabsf(y), 1.0f);
  oh[2 * i + 0] = __float2half_rn(x * 3.0f);
  oh[2 * i + 1] = __float2half_rn(x * y);  // exact in f32: one rounding either way
}

// short and char arithmetic: 16-bit VALU forms, conversions, saturation-free wrap-around.
extern "C" __global__ void small_ints(const short* a, const short* b, const signed char* c, const signed char* d, short* o, signed char* oc,
                                      int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  short x = a[i], y = b[i];
  unsigned short ux = x, uy = y;
  short* r = o + 12 * i;
  r[0] = x + y;
  r[1] = x - y;
  r[2] = x * y;
  r[3] = x * y + x;
  r[4] = x > y ? x : y;
  r[5] = ux < uy ? x : y;
  r[6] = x >> (y & 15);
  r[7] = ux >> (uy & 15);
  r[8] = x << (y & 15);
  r[9] = y != 0 ? x / y : 0;
  r[10] = (x & y) ^ (x | 0x00f0);
  r[11] = x < 0 ? -x : x;
  signed char p = c[i], q = d[i];
  oc[4 * i + 0] = p * q + 3;
  oc[4 * i + 1] = p >> 2;
  oc[4 * i + 2] = p < q ? p : q;
  oc[4 * i + 3] = static_cast<unsigned char>(p) / 3;
}

// Dot products: f16 and bf16 pairs into f32 or 16 bits, 8-bit and 4-bit integer dot products with
// every signedness and with and without saturation.
extern "C" __global__ void dots(const __half2* ha, const __half2* hb, const float* fc, const int* ia, const int* ib, const int* ic,
                                float* of, int* oi, __half* oh, short* ob, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  half2v x = *reinterpret_cast<const half2v*>(&ha[i]), y = *reinterpret_cast<const half2v*>(&hb[i]);
  short2v bx = *reinterpret_cast<const short2v*>(&ha[i]), by = *reinterpret_cast<const short2v*>(&hb[i]);
  of[3 * i + 0] = __builtin_amdgcn_fdot2(x, y, fc[i], false);
  of[3 * i + 1] = __builtin_amdgcn_fdot2_f32_bf16(bx, by, fc[i], false);
  of[3 * i + 2] = __builtin_amdgcn_fdot2(x, y, 1.0f, false);
  _Float16 h = __builtin_amdgcn_fdot2_f16_f16(x, y, static_cast<_Float16>(fc[i]));
  oh[i] = *reinterpret_cast<__half*>(&h);
  ob[i] = __builtin_amdgcn_fdot2_bf16_bf16(bx, by, static_cast<short>(ic[i]));
  int p = ia[i], q = ib[i], acc = ic[i];
  int* r = oi + 10 * i;
  r[0] = __builtin_amdgcn_sudot4(true, p, true, q, acc, false);
  r[1] = __builtin_amdgcn_sudot4(true, p, false, q, acc, false);
  r[2] = __builtin_amdgcn_sudot4(false, p, true, q, acc, false);
  r[3] = __builtin_amdgcn_sudot4(false, p, false, q, acc, true);
  r[4] = static_cast<int>(__builtin_amdgcn_udot4(p, q, acc, false));
  r[5] = static_cast<int>(__builtin_amdgcn_udot4(p, q, acc, true));
  r[6] = __builtin_amdgcn_sudot8(true, p, true, q, acc, false);
  r[7] = __builtin_amdgcn_sudot8(false, p, true, q, acc, true);
  r[8] = static_cast<int>(__builtin_amdgcn_udot8(p, q, acc, false));
  r[9] = static_cast<int>(__builtin_amdgcn_udot8(p, q, acc, true));
}

// WMMA, one 16x16x16 tile per wave: A row-major, B row-major (K x N), C and D row-major, loaded
// into the lane layout of the RDNA3 ISA guide (section 7.9): lane % 16 holds row m of A and column n
// of B; C/D element (m, n) sits in VGPR m / (wave/16), lane n + 16 * (m % (wave/16)).
typedef _Float16 v16h __attribute__((ext_vector_type(16)));
typedef _Float16 v8h __attribute__((ext_vector_type(8)));
typedef short v16s __attribute__((ext_vector_type(16)));
typedef short v8s __attribute__((ext_vector_type(8)));
typedef float v8f __attribute__((ext_vector_type(8)));
typedef float v4f __attribute__((ext_vector_type(4)));
typedef int v8i __attribute__((ext_vector_type(8)));
typedef int v4i __attribute__((ext_vector_type(4)));
typedef int v2i __attribute__((ext_vector_type(2)));

#if __AMDGCN_WAVEFRONT_SIZE == 64
constexpr int kRowsPerVgpr = 4, kCVgprs = 4;
#else
constexpr int kRowsPerVgpr = 2, kCVgprs = 8;
#endif

__device__ int c_row(int v, int lane) { return v * kRowsPerVgpr + lane / 16; }

template <typename V, typename T>
__device__ void load_ab(const T* a, const T* b, V& fa, V& fb, int lane) {
  for (int k = 0; k < 16; ++k) {
    fa[k] = a[(lane % 16) * 16 + k];
    fb[k] = b[k * 16 + lane % 16];
  }
}

extern "C" __global__ void wmma_f32_f16(const _Float16* a, const _Float16* b, const float* c, float* d) {
  const int lane = threadIdx.x;
  v16h fa, fb;
  load_ab(a, b, fa, fb, lane);
#if __AMDGCN_WAVEFRONT_SIZE == 64
  v4f acc;
#else
  v8f acc;
#endif
  for (int v = 0; v < kCVgprs; ++v) acc[v] = c[c_row(v, lane) * 16 + lane % 16];
#if __AMDGCN_WAVEFRONT_SIZE == 64
  acc = __builtin_amdgcn_wmma_f32_16x16x16_f16_w64(fa, fb, acc);
#else
  acc = __builtin_amdgcn_wmma_f32_16x16x16_f16_w32(fa, fb, acc);
#endif
  for (int v = 0; v < kCVgprs; ++v) d[c_row(v, lane) * 16 + lane % 16] = acc[v];
}

extern "C" __global__ void wmma_f32_bf16(const short* a, const short* b, const float* c, float* d) {
  const int lane = threadIdx.x;
  v16s fa, fb;
  load_ab(a, b, fa, fb, lane);
#if __AMDGCN_WAVEFRONT_SIZE == 64
  v4f acc;
#else
  v8f acc;
#endif
  for (int v = 0; v < kCVgprs; ++v) acc[v] = c[c_row(v, lane) * 16 + lane % 16];
#if __AMDGCN_WAVEFRONT_SIZE == 64
  acc = __builtin_amdgcn_wmma_f32_16x16x16_bf16_w64(fa, fb, acc);
#else
  acc = __builtin_amdgcn_wmma_f32_16x16x16_bf16_w32(fa, fb, acc);
#endif
  for (int v = 0; v < kCVgprs; ++v) d[c_row(v, lane) * 16 + lane % 16] = acc[v];
}

// 16-bit C/D: element v of the accumulator's VGPR v sits in its low (high = false) or high half.
template <bool High>
__device__ void wmma_f16_body(const _Float16* a, const _Float16* b, const _Float16* c, _Float16* d) {
  const int lane = threadIdx.x;
  v16h fa, fb;
  load_ab(a, b, fa, fb, lane);
#if __AMDGCN_WAVEFRONT_SIZE == 64
  v8h acc;
#else
  v16h acc;
#endif
  for (int v = 0; v < kCVgprs; ++v) {
    acc[2 * v + (High ? 1 : 0)] = c[c_row(v, lane) * 16 + lane % 16];
    acc[2 * v + (High ? 0 : 1)] = static_cast<_Float16>(-7.0f);  // the other half, kept
  }
#if __AMDGCN_WAVEFRONT_SIZE == 64
  acc = __builtin_amdgcn_wmma_f16_16x16x16_f16_w64(fa, fb, acc, High);
#else
  acc = __builtin_amdgcn_wmma_f16_16x16x16_f16_w32(fa, fb, acc, High);
#endif
  for (int v = 0; v < kCVgprs; ++v) d[c_row(v, lane) * 16 + lane % 16] = acc[2 * v + (High ? 1 : 0)];
}
extern "C" __global__ void wmma_f16_low(const _Float16* a, const _Float16* b, const _Float16* c, _Float16* d) { wmma_f16_body<false>(a, b, c, d); }
extern "C" __global__ void wmma_f16_high(const _Float16* a, const _Float16* b, const _Float16* c, _Float16* d) { wmma_f16_body<true>(a, b, c, d); }

extern "C" __global__ void wmma_bf16(const short* a, const short* b, const short* c, short* d) {
  const int lane = threadIdx.x;
  v16s fa, fb;
  load_ab(a, b, fa, fb, lane);
#if __AMDGCN_WAVEFRONT_SIZE == 64
  v8s acc;
#else
  v16s acc;
#endif
  for (int v = 0; v < kCVgprs; ++v) acc[2 * v] = c[c_row(v, lane) * 16 + lane % 16];
#if __AMDGCN_WAVEFRONT_SIZE == 64
  acc = __builtin_amdgcn_wmma_bf16_16x16x16_bf16_w64(fa, fb, acc, false);
#else
  acc = __builtin_amdgcn_wmma_bf16_16x16x16_bf16_w32(fa, fb, acc, false);
#endif
  for (int v = 0; v < kCVgprs; ++v) d[c_row(v, lane) * 16 + lane % 16] = acc[2 * v];
}

// Integer WMMA: A and B as bytes (iu8) or nibbles (iu4) packed little-endian along K.
template <bool SignedA, bool SignedB>
__device__ void wmma_iu8_body(const int* a, const int* b, const int* c, int* d) {
  const int lane = threadIdx.x;
  v4i fa, fb;
  for (int k = 0; k < 4; ++k) {
    fa[k] = a[(lane % 16) * 4 + k];
    fb[k] = b[(lane % 16) * 4 + k];  // b is stored column-major: column n's 16 bytes
  }
#if __AMDGCN_WAVEFRONT_SIZE == 64
  v4i acc;
#else
  v8i acc;
#endif
  for (int v = 0; v < kCVgprs; ++v) acc[v] = c[c_row(v, lane) * 16 + lane % 16];
#if __AMDGCN_WAVEFRONT_SIZE == 64
  acc = __builtin_amdgcn_wmma_i32_16x16x16_iu8_w64(SignedA, fa, SignedB, fb, acc, false);
#else
  acc = __builtin_amdgcn_wmma_i32_16x16x16_iu8_w32(SignedA, fa, SignedB, fb, acc, false);
#endif
  for (int v = 0; v < kCVgprs; ++v) d[c_row(v, lane) * 16 + lane % 16] = acc[v];
}
extern "C" __global__ void wmma_iu8_ss(const int* a, const int* b, const int* c, int* d) { wmma_iu8_body<true, true>(a, b, c, d); }
extern "C" __global__ void wmma_iu8_su(const int* a, const int* b, const int* c, int* d) { wmma_iu8_body<true, false>(a, b, c, d); }
extern "C" __global__ void wmma_iu8_uu(const int* a, const int* b, const int* c, int* d) { wmma_iu8_body<false, false>(a, b, c, d); }

extern "C" __global__ void wmma_iu4(const int* a, const int* b, const int* c, int* d) {
  const int lane = threadIdx.x;
  v2i fa, fb;
  for (int k = 0; k < 2; ++k) {
    fa[k] = a[(lane % 16) * 2 + k];
    fb[k] = b[(lane % 16) * 2 + k];
  }
#if __AMDGCN_WAVEFRONT_SIZE == 64
  v4i acc;
#else
  v8i acc;
#endif
  for (int v = 0; v < kCVgprs; ++v) acc[v] = c[c_row(v, lane) * 16 + lane % 16];
#if __AMDGCN_WAVEFRONT_SIZE == 64
  acc = __builtin_amdgcn_wmma_i32_16x16x16_iu4_w64(true, fa, false, fb, acc, false);
#else
  acc = __builtin_amdgcn_wmma_i32_16x16x16_iu4_w32(true, fa, false, fb, acc, false);
#endif
  for (int v = 0; v < kCVgprs; ++v) d[c_row(v, lane) * 16 + lane % 16] = acc[v];
}
