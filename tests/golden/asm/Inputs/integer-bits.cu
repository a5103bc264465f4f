// Bit-manipulation intrinsics and PTX bit instructions, one thread per input triple: what nvcc
// 11.8 compiles them to (POPC, FLO, BREV, PRMT in every mode, SHF funnel shifts, BMSK, SGXT,
// IDP, VABSDIFF, IABS, IMNMX, SEL, LOP3) is checked against host references written from the
// CUDA and PTX documentation. Prints PASS or the first mismatches.
#include <cstdint>
#include <cstdio>
#include <cstdlib>

constexpr int kOutputs = 40;

__device__ unsigned bfind_u(unsigned x) { unsigned r; asm("bfind.u32 %0, %1;" : "=r"(r) : "r"(x)); return r; }
__device__ unsigned bfind_s(int x) { unsigned r; asm("bfind.s32 %0, %1;" : "=r"(r) : "r"(x)); return r; }
__device__ unsigned bfind_sh(unsigned x) { unsigned r; asm("bfind.shiftamt.u32 %0, %1;" : "=r"(r) : "r"(x)); return r; }
__device__ unsigned bmsk_clamp(unsigned a, unsigned b) { unsigned r; asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r; }
__device__ unsigned bmsk_wrap(unsigned a, unsigned b) { unsigned r; asm("bmsk.wrap.b32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r; }
__device__ unsigned szext_s_clamp(unsigned a, unsigned b) { unsigned r; asm("szext.clamp.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r; }
__device__ unsigned szext_u_wrap(unsigned a, unsigned b) { unsigned r; asm("szext.wrap.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r; }
__device__ unsigned prmt_mode(unsigned a, unsigned b, unsigned c, int m) {
  unsigned r;
  switch (m) {
    case 0: asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); break;
    case 1: asm("prmt.b32.b4e %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); break;
    case 2: asm("prmt.b32.rc8 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); break;
    case 3: asm("prmt.b32.ecl %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); break;
    case 4: asm("prmt.b32.ecr %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); break;
    default: asm("prmt.b32.rc16 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); break;
  }
  return r;
}
// __dp4a and __dp2a_lo/hi have no HIP declarations for the host pass: their PTX instead.
__device__ int dp4a_s(int a, int b, int c) { int r; asm("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r; }
__device__ unsigned dp4a_u(unsigned a, unsigned b, unsigned c) { unsigned r; asm("dp4a.u32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r; }
__device__ int dp2a_lo_s(int a, int b, int c) { int r; asm("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r; }
__device__ unsigned dp2a_hi_u(unsigned a, unsigned b, unsigned c) { unsigned r; asm("dp2a.hi.u32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r; }
__device__ unsigned prmt_sign(unsigned a, unsigned b, unsigned c) {
  unsigned r;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));  // all four selector bits
  return r;
}

__global__ void bits(const unsigned* in, unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned a = in[3 * i], b = in[3 * i + 1], c = in[3 * i + 2];
  unsigned* o = out + kOutputs * i;
  unsigned long long w = ((unsigned long long)a << 32) | b;
  o[0] = __popc(a);
  o[1] = __clz(a);
  o[2] = __ffs(b);
  o[3] = __brev(a);
  o[4] = __byte_perm(a, b, c);
  o[5] = __funnelshift_l(a, b, c);
  o[6] = __funnelshift_lc(a, b, c);
  o[7] = __funnelshift_r(a, b, c);
  o[8] = __funnelshift_rc(a, b, c);
  o[9] = bfind_u(a);
  o[10] = bfind_s((int)b);
  o[11] = bfind_sh(c);
  o[12] = bmsk_clamp(a & 63, b & 63);
  o[13] = bmsk_wrap(a, b);
  o[14] = szext_s_clamp(a, b & 63);
  o[15] = szext_u_wrap(a, b);
  for (int m = 0; m < 6; ++m) o[16 + m] = prmt_mode(a, b, c, m);
  o[22] = dp4a_s((int)a, (int)b, (int)c);
  o[23] = dp4a_u(a, b, c);
  o[24] = dp2a_lo_s((int)a, (int)b, (int)c);
  o[25] = dp2a_hi_u(a, b, c);
  o[26] = abs((int)a);
  o[27] = min((int)a, (int)b);
  o[28] = max(a, b);
  o[29] = __popcll(w);
  o[30] = __clzll(w);
  o[31] = (unsigned)(w << (c & 63));
  o[32] = (unsigned)((w << (c & 63)) >> 32);
  o[33] = (unsigned)(w >> (c & 63));
  o[34] = (unsigned)((long long)w >> (c & 63) >> 32);
  o[35] = (a >> (c & 31)) | (a << ((32 - c) & 31));
  o[36] = (int)a >> (b & 31);
  o[37] = __sad((int)a, (int)b, c);
  o[38] = __usad(a, b, c);
  o[39] = prmt_sign(a, b, c) ^ (__mulhi((int)a, (int)b) + __umulhi(b, c));
}

// ---- host references, written from the documentation's definitions -----------------------------
static unsigned popc(unsigned long long x) { unsigned n = 0; for (; x; x >>= 1) n += x & 1; return n; }
static unsigned clz(unsigned long long x, int bits) { int n = 0; for (int k = bits - 1; k >= 0 && !((x >> k) & 1); --k) ++n; return n; }
static unsigned byte_of(unsigned long long v, unsigned k) { return (unsigned)(v >> (8 * k)) & 0xff; }
// PTX prmt: the byte indices of each mode by selector c[1:0], destination bytes 0..3.
static const unsigned kModeBytes[6][4][4] = {
    {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},  // f4e
    {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},  // b4e
    {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},  // rc8
    {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},  // ecl
    {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},  // ecr
    {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}},  // rc16
};
static unsigned prmt(unsigned a, unsigned b, unsigned c, int mode) {  // mode -1: the generic form
  unsigned long long v = ((unsigned long long)b << 32) | a;
  unsigned r = 0;
  for (unsigned k = 0; k < 4; ++k) {
    unsigned byte;
    if (mode < 0) {
      unsigned s = (c >> (4 * k)) & 0xf;
      byte = byte_of(v, s & 7);
      if (s & 8) byte = (byte & 0x80) ? 0xff : 0;
    } else {
      byte = byte_of(v, kModeBytes[mode][c & 3][k]);
    }
    r |= byte << (8 * k);
  }
  return r;
}
static unsigned bfind(unsigned x, bool is_signed, bool shift) {
  if (is_signed && (int)x < 0) x = ~x;
  if (x == 0) return 0xffffffffu;
  int pos = 31;
  while (!((x >> pos) & 1)) --pos;
  return shift ? 31 - pos : pos;
}
static unsigned bmsk(unsigned a, unsigned b, bool clamp) {  // PTX bmsk's pseudocode
  unsigned a1 = a & 0x1f, b1 = b & 0x1f, sum = a1 + b1;
  unsigned mask0 = ~0u << a1;
  unsigned mask1 = sum >= 32 ? 0 : ~0u << sum;
  bool overflow = sum >= 32;
  if (clamp && a >= 32) mask0 = 0, overflow = true;
  if (clamp && b >= 32) overflow = true;
  if (overflow) mask1 = 0;
  else if (b1 == 0) mask1 = ~0u;
  return mask0 & ~mask1;
}
static unsigned szext(unsigned a, unsigned b, bool is_signed, bool clamp) {
  unsigned n = clamp ? (b > 32 ? 32 : b) : b % 32;
  if (n == 0) return 0;
  unsigned r = 0;
  for (unsigned k = 0; k < 32; ++k) {
    unsigned from = k < n ? k : (is_signed ? n - 1 : 32);
    if (from < 32 && ((a >> from) & 1)) r |= 1u << k;
  }
  return r;
}
static int sbyte(unsigned x, int k, bool s) { int v = (x >> (8 * k)) & 0xff; return s && v >= 128 ? v - 256 : v; }
static int shalf(unsigned x, int k, bool s) { int v = (x >> (16 * k)) & 0xffff; return s && v >= 32768 ? v - 65536 : v; }
static unsigned funnel(unsigned lo, unsigned hi, unsigned n, bool left) {
  unsigned long long v = ((unsigned long long)hi << 32) | lo;
  return left ? (unsigned)((v << n) >> 32) : (unsigned)(v >> n);
}

static void reference(unsigned a, unsigned b, unsigned c, unsigned* e) {
  unsigned long long w = ((unsigned long long)a << 32) | b;
  e[0] = popc(a);
  e[1] = clz(a, 32);
  e[2] = 0;
  for (int k = 0; k < 32; ++k) if ((b >> k) & 1) { e[2] = k + 1; break; }
  e[3] = 0;
  for (int k = 0; k < 32; ++k) if ((a >> k) & 1) e[3] |= 1u << (31 - k);
  e[4] = prmt(a, b, c & 0x7777, -1);
  e[5] = funnel(a, b, c & 31, true);
  e[6] = funnel(a, b, c > 32 ? 32 : c, true);
  e[7] = funnel(a, b, c & 31, false);
  e[8] = funnel(a, b, c > 32 ? 32 : c, false);
  e[9] = bfind(a, false, false);
  e[10] = bfind(b, true, false);
  e[11] = bfind(c, false, true);
  e[12] = bmsk(a & 63, b & 63, true);
  e[13] = bmsk(a, b, false);
  e[14] = szext(a, b & 63, true, true);
  e[15] = szext(a, b, false, false);
  for (int m = 0; m < 6; ++m) e[16 + m] = prmt(a, b, c, m);
  int d4s = (int)c, d2s = (int)c;
  unsigned d4u = c, d2u = c;
  for (int k = 0; k < 4; ++k) d4s += sbyte(a, k, true) * sbyte(b, k, true), d4u += (unsigned)(sbyte(a, k, false) * sbyte(b, k, false));
  for (int k = 0; k < 2; ++k) d2s += shalf(a, k, true) * sbyte(b, k, true), d2u += (unsigned)(shalf(a, k, false) * sbyte(b, k + 2, false));
  e[22] = (unsigned)d4s, e[23] = d4u, e[24] = (unsigned)d2s, e[25] = d2u;
  e[26] = (int)a < 0 ? 0u - a : a;
  e[27] = (unsigned)((int)a < (int)b ? (int)a : (int)b);
  e[28] = a > b ? a : b;
  e[29] = popc(w);
  e[30] = clz(w, 64);
  unsigned s = c & 63;
  e[31] = (unsigned)(w << s);
  e[32] = (unsigned)((w << s) >> 32);
  e[33] = (unsigned)(w >> s);
  // Arithmetic shifts as logical ones with the vacated bits set for negative values.
  unsigned long long sw = (w >> s) | (w >> 63 ? ~(~0ull >> s) : 0);
  e[34] = (unsigned)(sw >> 32);
  e[35] = (c & 31) == 0 ? a : (a >> (c & 31)) | (a << (32 - (c & 31)));
  e[36] = (a >> (b & 31)) | (a >> 31 ? ~(~0u >> (b & 31)) : 0);
  long long diff = (long long)(int)a - (int)b;
  e[37] = (unsigned)(diff < 0 ? -diff : diff) + c;
  e[38] = (a > b ? a - b : b - a) + c;
  long long hi_s = ((long long)(int)a * (int)b) >> 32;
  unsigned hi_u = (unsigned)(((unsigned long long)b * c) >> 32);
  e[39] = prmt(a, b, c, -1) ^ ((unsigned)hi_s + hi_u);
}

int main() {
  const int n = 512;
  static unsigned in[3 * n], out[kOutputs * n], expect[kOutputs];
  // Edge values first (zero, all ones, sign bits, shift counts around 32 and 64), then a
  // deterministic pseudo-random sequence.
  const unsigned edges[] = {0, 1, 0xffffffffu, 0x80000000u, 0x7fffffffu, 31, 32, 33, 63, 64, 65, 0x12345678u, 0x80808080u, 0x0000ff00u};
  const int ne = sizeof edges / sizeof edges[0];
  unsigned seed = 12345;
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < 3; ++k) {
      seed = seed * 1664525u + 1013904223u;
      int e = i * 3 + k;
      in[e] = e < ne * ne * 3 && i < ne * ne ? edges[k == 0 ? i / ne : k == 1 ? i % ne : (i * 7 + 3) % ne] : seed ^ (seed >> 13);
    }
  unsigned *din, *dout;
  cudaMalloc(&din, sizeof in);
  cudaMalloc(&dout, sizeof out);
  cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice);
  bits<<<n / 128, 128>>>(din, dout, n);
  cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    reference(in[3 * i], in[3 * i + 1], in[3 * i + 2], expect);
    for (int k = 0; k < kOutputs; ++k)
      if (out[kOutputs * i + k] != expect[k] && ++bad <= 10)
        printf("thread %d output %d (a=%#x b=%#x c=%#x): got %#x expected %#x\n", i, k, in[3 * i], in[3 * i + 1], in[3 * i + 2],
               out[kOutputs * i + k], expect[k]);
  }
  printf("RESULT integer-bits %s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
