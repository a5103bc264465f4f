// 64-bit and 128-bit integer arithmetic, divisions by constants, signed index arithmetic and
// compound conditions: what nvcc 11.8 compiles them to (IMAD.WIDE/IMAD.HI with carries, IADD3.X,
// LEA/LEA.HI.X/.SX32, SHF, ISETP.EX, LOP3 with predicate outputs, PLOP3, SEL, IMNMX) is checked
// against the same C++ computed on the host (with unsigned __int128). Prints PASS or mismatches.
#include <cstdint>
#include <cstdio>

constexpr int kOutputs = 24;
typedef unsigned long long u64;
typedef long long i64;

__host__ __device__ inline void arith(u64 x, u64 y, int k, unsigned* o) {
  o[0] = (unsigned)(x * y), o[1] = (unsigned)((x * y) >> 32);
  // The high half of a 64x64-bit product.
  u64 hi;
#ifdef __CUDA_ARCH__
  hi = __umul64hi(x, y);
#else
  hi = (u64)(((unsigned __int128)x * y) >> 64);
#endif
  o[2] = (unsigned)hi, o[3] = (unsigned)(hi >> 32);
  i64 sx = (i64)x, sy = (i64)y;
  i64 shi;
#ifdef __CUDA_ARCH__
  shi = __mul64hi(sx, sy);
#else
  shi = (i64)(((__int128)sx * sy) >> 64);
#endif
  o[4] = (unsigned)shi, o[5] = (unsigned)((u64)shi >> 32);
  u64 s = x + y, d = x - y;
  o[6] = (unsigned)s, o[7] = (unsigned)(s >> 32), o[8] = (unsigned)d, o[9] = (unsigned)(d >> 32);
  // Divisions and remainders by constants (multiply-high sequences with SHF and LEA.HI).
  unsigned ux = (unsigned)x;
  int ix = (int)x;
  o[10] = ux / 7 + ux % 10;
  o[11] = (unsigned)(ix / 9 + ix % 6);
  o[12] = (unsigned)(ix / -16 + ix / 4);
  o[13] = (unsigned)((i64)x / 1000);
  o[14] = (unsigned)(x % 1000000007ull);
  // 64-bit comparisons and compound conditions.
  int c = 0;
  if (x < y) c |= 1;
  if (sx < sy) c |= 2;
  if ((x & 1) && !(y & 2)) c |= 4;
  if (((x >> 7) & 1) || (y & 0x100) || k > 3) c |= 8;
  if ((x ^ y) == 0 || (sx > 0 && sy < 0)) c |= 16;
  if ((unsigned)x != 0 && (k & 1) == ((unsigned)y & 1)) c |= 32;
  o[15] = c;
  // Signed index arithmetic as addresses are formed: sign-extended, scaled, added to 64 bits.
  i64 idx = (i64)(int)y * 12 + k;
  o[16] = (unsigned)(x + (u64)idx), o[17] = (unsigned)((x + (u64)idx) >> 32);
  o[18] = (unsigned)(x + ((u64)(int)k << 3)) ^ (unsigned)((x + ((u64)(int)k << 3)) >> 32);
  // Selects, minimum and maximum of mixed signedness.
  int a = (int)(x >> 32), b = (int)y;
  // (Unsigned arithmetic on the results: a signed overflow would let the host compiler differ.)
  o[19] = a < b ? (unsigned)b - (unsigned)a : (unsigned)a - (unsigned)b;
  o[20] = (unsigned)min(a, b) * 3u + (unsigned)max(a, b);
  o[21] = (unsigned)min((unsigned)a, (unsigned)b) ^ max((unsigned)a, (unsigned)b);
  o[22] = (unsigned)(k < 0 ? -k : k) + (unsigned)(a > 0 ? a : 0);
  // A 32-bit rotate and a 64-bit shift by a variable count.
  unsigned r = k & 31;
  o[23] = ((ux << r) | (ux >> ((32 - r) & 31))) + (unsigned)(x >> (k & 63)) + (unsigned)((i64)x >> (k & 63));
}

__global__ void arith_kernel(const u64* in, const int* ks, unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) arith(in[2 * i], in[2 * i + 1], ks[i], out + kOutputs * i);
}

int main() {
  const int n = 384;
  static u64 in[2 * n];
  static int ks[n];
  static unsigned out[kOutputs * n], expect[kOutputs];
  const u64 edges[] = {0, 1, ~0ull, 0x8000000000000000ull, 0x7fffffffffffffffull, 0xffffffffull, 0x100000000ull,
                       0x80000000ull, 0xffffffff80000000ull, 1000000007ull, 0x123456789abcdef0ull, 0xfffffffffffffffeull};
  const int ne = sizeof edges / sizeof edges[0];
  u64 seed = 88172645463325252ull;
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < 2; ++k) {
      seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
      in[2 * i + k] = i < ne * ne ? edges[k == 0 ? i / ne : i % ne] : seed;
    }
    ks[i] = (int)(seed >> 40) % 200 - 100;
  }
  u64* din;
  int* dks;
  unsigned* dout;
  cudaMalloc(&din, sizeof in);
  cudaMalloc(&dks, sizeof ks);
  cudaMalloc(&dout, sizeof out);
  cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice);
  cudaMemcpy(dks, ks, sizeof ks, cudaMemcpyHostToDevice);
  arith_kernel<<<n / 128, 128>>>(din, dks, dout, n);
  cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    arith(in[2 * i], in[2 * i + 1], ks[i], expect);
    for (int k = 0; k < kOutputs; ++k)
      if (out[kOutputs * i + k] != expect[k] && ++bad <= 10)
        printf("thread %d output %d (x=%#llx y=%#llx k=%d): got %#x expected %#x\n", i, k, in[2 * i], in[2 * i + 1], ks[i],
               out[kOutputs * i + k], expect[k]);
  }
  printf("RESULT integer-arith %s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
