// Integer work on values the whole block shares (a tiled loop's counter and what is derived from
// it), which nvcc 11.8 puts on the uniform datapath (UIADD3, ULOP3, USHF, UPRMT, UFLO, UPOPC, USEL,
// UISETP), and per-thread work on kernel parameters with compound per-thread conditions (PLOP3,
// SEL, funnel shifts, 64-bit shifts). Checked against the same functions computed on the host.
#include <cstdio>

constexpr int kOutputs = 14;
typedef unsigned long long u64;

__host__ __device__ inline unsigned popc32(unsigned x) {
#ifdef __CUDA_ARCH__
  return __popc(x);
#else
  return __builtin_popcount(x);
#endif
}
__host__ __device__ inline unsigned clz32(unsigned x) {
#ifdef __CUDA_ARCH__
  return __clz(x);
#else
  return x ? __builtin_clz(x) : 32;
#endif
}
__host__ __device__ inline unsigned brev32(unsigned x) {
#ifdef __CUDA_ARCH__
  return __brev(x);
#else
  unsigned r = 0;
  for (int k = 0; k < 32; ++k) r |= ((x >> k) & 1) << (31 - k);
  return r;
#endif
}
__host__ __device__ inline unsigned perm(unsigned x, unsigned y, unsigned s) {
#ifdef __CUDA_ARCH__
  return __byte_perm(x, y, s);
#else
  u64 v = ((u64)y << 32) | x;
  unsigned r = 0;
  for (int k = 0; k < 4; ++k) r |= (unsigned)((v >> (8 * ((s >> (4 * k)) & 7))) & 0xff) << (8 * k);
  return r;
#endif
}

__host__ __device__ inline void uniform_work(unsigned p, unsigned q, int s, u64 w, unsigned t, const unsigned* table,
                                             unsigned* o) {
  // Parameters only: the uniform datapath.
  unsigned u0 = popc32(p) + clz32(q) * 3 + brev32(p ^ q);
  unsigned u1 = perm(p, q, 0x5140) ^ perm(q, p, 0x3726);
  unsigned u2 = (p << (s & 31)) | (q >> ((32 - s) & 31));
  u64 u3 = (w << (s & 63)) + (w >> ((s + 7) & 63));
  unsigned u4 = (int)p < s ? (unsigned)s - p : p & 0xff00ff;
  unsigned u5 = table[(p & 7) + 2 * (q & 3)];
  unsigned u6 = (unsigned)((long long)(int)q * (int)p) + (unsigned)(((u64)p * q) >> 32);
  o[0] = u0 + t;
  o[1] = u1 ^ t;
  o[2] = u2 * t;
  o[3] = (unsigned)u3 + t, o[4] = (unsigned)(u3 >> 32) ^ t;
  o[5] = u4 + (t & 15);
  o[6] = u5 + t;
  o[7] = u6 - t;
  // Per-thread conditions combined with uniform ones.
  bool odd = t & 1, high = t > (p & 63), near = (t ^ q) < 16;
  o[8] = (odd && high) || near ? 1 : 0;
  o[9] = (odd != high) && !near ? t * 3 : t + 100;
  o[10] = (s > 4 && odd) || (q == t) ? p : q;
  o[11] = (t < 8 || t > 40) && (p & t) ? popc32(t * p) : clz32(t + q);
  // Loops whose trip counts and strides come from the parameters: uniform counters and addresses.
  unsigned acc = 0;
  for (unsigned j = 0; j < (q & 15) + 3; ++j) {
    unsigned v = p * j + (j << (s & 7)) + (q >> (j & 31));
    acc += popc32(v ^ (v >> 3)) * (j | 1) + perm(v, j, 0x4321) + clz32(v | j) + table[(j * (p | 1)) & 15];
  }
  o[12] = acc + t;
  unsigned long long acc64 = w;
  for (int j = 0; j < (s & 7) + 2; ++j) acc64 = (acc64 >> 3) ^ (acc64 << (j + 1)) ^ (u64)table[j] * (q | 1);
  o[13] = (unsigned)acc64 ^ (unsigned)(acc64 >> 32) ^ t;
}

__global__ void uniform_kernel(unsigned p, unsigned q, int s, u64 w, const unsigned* table, unsigned* out) {
  unsigned t = threadIdx.x + blockIdx.x * blockDim.x;
  uniform_work(p, q, s, w, t, table, out + kOutputs * t);
}

// A block-uniform loop over tiles of `in` staged through shared memory.
__host__ __device__ inline unsigned tile_key(int base, int n, int shift, unsigned mask) {
  unsigned sel = (unsigned)(base >> 6) * 0x9e3779b9u;
  return popc32(sel & mask) + clz32(sel | 1) + perm(sel, mask, 0x7531) + (sel >> (shift & 31)) + (unsigned)min(base, n - base);
}
__global__ void tiled(const unsigned* in, unsigned* out, int n, int shift, unsigned mask) {
  __shared__ unsigned tile[64];
  unsigned acc = 0;
  for (int base = 0; base < n; base += 64) {
    tile[threadIdx.x] = in[base + threadIdx.x];
    __syncthreads();
    unsigned key = tile_key(base, n, shift, mask);
    for (int j = 0; j < 64; j += 4) acc += (tile[j] ^ key) + (tile[(j + threadIdx.x) & 63] << ((base >> 6) & 7));
    __syncthreads();
  }
  out[blockIdx.x * 64 + threadIdx.x] = acc;
}

static int check_tiled() {
  const int n = 64 * 5, blocks = 2;
  static unsigned in[n], out[64 * blocks];
  for (int k = 0; k < n; ++k) in[k] = 0x01000193u * (unsigned)k ^ (unsigned)(k << 20);
  unsigned *din, *dout;
  cudaMalloc(&din, sizeof in);
  cudaMalloc(&dout, sizeof out);
  cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice);
  int bad = 0;
  const int shifts[] = {0, 7, 31, 45};
  const unsigned masks[] = {0xffffffffu, 0x0f0f0f0fu, 0, 0x80000001u};
  for (int c = 0; c < 4; ++c) {
    tiled<<<blocks, 64>>>(din, dout, n, shifts[c], masks[c]);
    cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
    for (int t = 0; t < 64 * blocks; ++t) {
      unsigned acc = 0, lane = t % 64;
      for (int base = 0; base < n; base += 64) {
        unsigned key = tile_key(base, n, shifts[c], masks[c]);
        for (int j = 0; j < 64; j += 4) acc += (in[base + j] ^ key) + (in[base + ((j + lane) & 63)] << ((base >> 6) & 7));
      }
      if (out[t] != acc && ++bad <= 10) printf("tiled case %d thread %d: got %#x expected %#x\n", c, t, out[t], acc);
    }
  }
  return bad;
}

int main() {
  const int threads = 64;
  const unsigned params[][3] = {{0x12345678u, 0x9abcdef0u, 5}, {0, 0xffffffffu, 0}, {0xffffffffu, 1, 31}, {0x80000000u, 0, 32},
                                {7, 40, 0xfffffffdu}, {0x00ff00ffu, 0x0f0f0f0fu, 63}};
  const u64 ws[] = {0x0123456789abcdefull, ~0ull, 1, 0x8000000000000000ull, 0, 0xdeadbeefcafef00dull};
  unsigned table[16], out[kOutputs * threads], expect[kOutputs];
  for (int k = 0; k < 16; ++k) table[k] = 0x1000u * k + 7u * k * k;
  unsigned *dtable, *dout;
  cudaMalloc(&dtable, sizeof table);
  cudaMalloc(&dout, sizeof out);
  cudaMemcpy(dtable, table, sizeof table, cudaMemcpyHostToDevice);
  int bad = 0;
  for (int c = 0; c < 6; ++c) {
    const unsigned p = params[c][0], q = params[c][1];
    const int s = (int)params[c][2];
    uniform_kernel<<<2, threads / 2>>>(p, q, s, ws[c], dtable, dout);
    cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
    for (int t = 0; t < threads; ++t) {
      uniform_work(p, q, s, ws[c], t, table, expect);
      for (int k = 0; k < kOutputs; ++k)
        if (out[kOutputs * t + k] != expect[k] && ++bad <= 10)
          printf("case %d thread %d output %d: got %#x expected %#x\n", c, t, k, out[kOutputs * t + k], expect[k]);
    }
  }
  bad += check_tiled();
  printf("RESULT integer-uniform %s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
