// cp.async (LDGSTS, sm_80+) with 4-, 8- and 16-byte copies, the src-size zero-fill forms
// (.ZFILL and the predicate form), the commit/wait groups; loads and stores with cache hints
// (__ldg, __ldcs, __ldlu, __stcs, __stwt), volatile accesses and fences (LDG/STG .STRONG.SYS,
// MEMBAR), sub-word and 128-bit accesses, and a local array indexed at run time (LDL/STL).
#include <cstdio>
#include <cstring>
struct __align__(16) Quad { int a, b, c, d; };
// The device code of copy_async is PTX (cp.async); the HIP host code of the program only needs
// its declaration, so its body is compiled for the device alone.
__device__ __forceinline__ void cp_async(void* shared, const void* global, int bytes, int src_size) {
#ifdef __CUDA_ARCH__
  const unsigned s = (unsigned)__cvta_generic_to_shared(shared);
  if (bytes == 4) asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(s), "l"(global), "r"(src_size));
  if (bytes == 8) asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;\n" ::"r"(s), "l"(global), "r"(src_size));
  if (bytes == 16) asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s), "l"(global), "r"(src_size));
#endif
}
__device__ __forceinline__ void cp_async_wait_all() {
#ifdef __CUDA_ARCH__
  asm volatile("cp.async.commit_group;\n" ::);
  asm volatile("cp.async.wait_group 0;\n" ::);
#endif
}
__global__ void copy_async(const int* in, const Quad* in4, const long long* in8, int* out, Quad* out4, long long* out8, int n) {
  __shared__ int s[128];
  __shared__ Quad s4[128];
  __shared__ long long s8[128];
  __shared__ int z[128 * 4];
  const int t = threadIdx.x;
  cp_async(&s[t], &in[t], 4, 4);
  cp_async(&s4[t], &in4[t], 16, 16);
  cp_async(&s8[t], &in8[t], 8, 8);
  // src-size: thread t copies min(n - 4t, 4) ints of in[4t..4t+3] and zero-fills the rest; threads past n copy nothing.
  int valid = n - 4 * t;
  valid = valid < 0 ? 0 : valid > 4 ? 4 : valid;
  cp_async(&z[4 * t], &in[4 * t], 16, valid * 4);
  cp_async(&s[t], &in[t], 4, t < n ? 4 : 0);  // the same copy again, zero past n
  cp_async_wait_all();
  __syncthreads();
  const int u = (t + 1) & 127;
  out[t] = s[u];
  out4[t] = s4[u];
  out8[t] = s8[u];
  for (int k = 0; k < 4; ++k) out[128 + 4 * t + k] = z[4 * t + k];
}
__global__ void hints(const int* in, const unsigned char* bytes, const signed char* sbytes, const short* shorts,
                      const unsigned short* ushorts, volatile int* flags, int* out, unsigned char* out8, short* out16, int n) {
#ifdef __CUDA_ARCH__  // __stcs and __stwt have no HIP counterpart; the host code needs no body
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  int local[64];  // indexed at run time: in local memory
  for (int k = 0; k < 64; ++k) local[k] = in[t + k < n ? t + k : t + k - n] * k;
  const int pick = in[t] & 63;
  out[t] = __ldg(&in[t]) + __ldcs(&in[t + 1 < n ? t + 1 : t + 1 - n]) + __ldlu(&in[t + 2 < n ? t + 2 : t + 2 - n]) + local[pick];
  __stcs(&out[n + t], bytes[t] + sbytes[t]);
  __stwt(&out[2 * n + t], shorts[t] + ushorts[t]);
  out8[t] = bytes[t] + 1;
  out16[t] = shorts[t] - 1;
  flags[t] = flags[t] + 1;  // volatile: LDG/STG .STRONG.SYS
  __threadfence();
  __threadfence_block();
  __threadfence_system();
  out[3 * n + t] = flags[t];
#endif
}
int main() {
  int bad = 0;
  const int threads = 128;
  int h_in[4 * threads]; Quad h_in4[threads]; long long h_in8[threads];
  for (int i = 0; i < 4 * threads; ++i) h_in[i] = i * 3 + 1;
  for (int i = 0; i < threads; ++i) { h_in4[i] = {i, -i, i * 7, 1 << (i & 31)}; h_in8[i] = 0x123456789ll * i - 5; }
  int *in, *out; Quad *in4, *out4; long long *in8, *out8;
  cudaMalloc(&in, sizeof h_in); cudaMalloc(&in4, sizeof h_in4); cudaMalloc(&in8, sizeof h_in8);
  cudaMalloc(&out, 5 * threads * 4); cudaMalloc(&out4, sizeof h_in4); cudaMalloc(&out8, sizeof h_in8);
  cudaMemcpy(in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
  cudaMemcpy(in4, h_in4, sizeof h_in4, cudaMemcpyHostToDevice);
  cudaMemcpy(in8, h_in8, sizeof h_in8, cudaMemcpyHostToDevice);
  const int n = 201;  // in[0..200] are copied by the src-size forms, the rest zero-filled
  copy_async<<<1, threads>>>(in, in4, in8, out, out4, out8, n);
  int h_out[5 * threads]; Quad h_out4[threads]; long long h_out8[threads];
  cudaMemcpy(h_out, out, sizeof h_out, cudaMemcpyDeviceToHost);
  cudaMemcpy(h_out4, out4, sizeof h_out4, cudaMemcpyDeviceToHost);
  cudaMemcpy(h_out8, out8, sizeof h_out8, cudaMemcpyDeviceToHost);
  for (int t = 0; t < threads; ++t) {
    const int u = (t + 1) & 127;
    const int want_s = u < n ? h_in[u] : 0;
    if (h_out[t] != want_s || memcmp(&h_out4[t], &h_in4[u], 16) != 0 || h_out8[t] != h_in8[u]) {
      if (bad < 5) printf("copy %d: %d, want %d\n", t, h_out[t], want_s);
      ++bad;
    }
    for (int k = 0; k < 4; ++k) {
      const int want = 4 * t + k < n ? h_in[4 * t + k] : 0;
      if (h_out[128 + 4 * t + k] != want) { if (bad < 5) printf("zfill %d: %d, want %d\n", 4 * t + k, h_out[128 + 4 * t + k], want); ++bad; }
    }
  }
  const int m = 300;
  int h_v[m]; unsigned char h_b[m]; signed char h_sb[m]; short h_s[m]; unsigned short h_us[m]; int h_f[m];
  for (int i = 0; i < m; ++i) { h_v[i] = i * 5 - 7; h_b[i] = (unsigned char)(i * 11); h_sb[i] = (signed char)(i * 13); h_s[i] = (short)(i * 301 - 30000); h_us[i] = (unsigned short)(i * 499); h_f[i] = i; }
  int *v, *f, *o; unsigned char *b, *o8; signed char* sb; short *s, *o16; unsigned short* us;
  cudaMalloc(&v, sizeof h_v); cudaMalloc(&b, m); cudaMalloc(&sb, m); cudaMalloc(&s, 2 * m); cudaMalloc(&us, 2 * m); cudaMalloc(&f, sizeof h_f);
  cudaMalloc(&o, 4 * m * 4); cudaMalloc(&o8, m); cudaMalloc(&o16, 2 * m);
  cudaMemcpy(v, h_v, sizeof h_v, cudaMemcpyHostToDevice); cudaMemcpy(b, h_b, m, cudaMemcpyHostToDevice);
  cudaMemcpy(sb, h_sb, m, cudaMemcpyHostToDevice); cudaMemcpy(s, h_s, 2 * m, cudaMemcpyHostToDevice);
  cudaMemcpy(us, h_us, 2 * m, cudaMemcpyHostToDevice); cudaMemcpy(f, h_f, sizeof h_f, cudaMemcpyHostToDevice);
  hints<<<(m + 63) / 64, 64>>>(v, b, sb, s, us, f, o, o8, o16, m);
  int h_o[4 * m]; unsigned char h_o8[m]; short h_o16[m];
  cudaMemcpy(h_o, o, sizeof h_o, cudaMemcpyDeviceToHost); cudaMemcpy(h_o8, o8, m, cudaMemcpyDeviceToHost);
  cudaMemcpy(h_o16, o16, 2 * m, cudaMemcpyDeviceToHost);
  for (int t = 0; t < m; ++t) {
    const int pick = h_v[t] & 63;
    const int want = h_v[t] + h_v[(t + 1) % m] + h_v[(t + 2) % m] + h_v[(t + pick) % m] * pick;
    if (h_o[t] != want || h_o[m + t] != h_b[t] + h_sb[t] || h_o[2 * m + t] != h_s[t] + h_us[t] || h_o[3 * m + t] != t + 1 ||
        h_o8[t] != (unsigned char)(h_b[t] + 1) || h_o16[t] != (short)(h_s[t] - 1)) {
      if (bad < 10) printf("hints %d: %d %d %d %d %d %d\n", t, h_o[t], h_o[m + t], h_o[2 * m + t], h_o[3 * m + t], h_o8[t], h_o16[t]);
      ++bad;
    }
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
