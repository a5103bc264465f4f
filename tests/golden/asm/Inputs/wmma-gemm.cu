// CUDA's wmma API on the tensor cores, one 16x16 tile per warp, fixed sizes: f16 x f16 + f32 (row-
// and column-major B), f16 x f16 + f16, bf16, tf32 (m16n16k8), s8 and u8 with int32 accumulators
// and f64 (m8n8k4). The fragment layouts are whatever nvcc's headers and ptxas chose; the program
// checks each result against its own CPU product (inputs small enough for every sum to be exact).
// nvcuda::wmma has no HIP counterpart (rocWMMA differs and is not in Debian), so the kernel bodies
// are nvcc's only (#ifndef __HIP__): the HIP host build of the source translation sees empty
// kernels, whose device code gpuport asm supplies. Parameters are plain integer types, so that both
// compilers mangle the kernel names alike; the host converts to and from f16 and bf16 by bits.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>
#ifndef __HIP__
#include <mma.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
using namespace nvcuda;
#define HALF(p) reinterpret_cast<const half*>(p)
#define BF16(p) reinterpret_cast<const __nv_bfloat16*>(p)
#endif

// C (16 x 16) = A (16 x K) x B (K x 16) + C, K = 32: two k steps of 16.
__global__ void gemm_f16_f32(const uint16_t* a16, const uint16_t* b16, float* c) {
#ifndef __HIP__
  const half *a = HALF(a16), *b = HALF(b16);
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
  for (int k = 0; k < 32; k += 16) {
    wmma::load_matrix_sync(fa, a + k, 32);
    wmma::load_matrix_sync(fb, b + k, 32);  // column-major B: column n at b + 32 n
    wmma::mma_sync(fc, fa, fb, fc);
  }
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
#endif
}
__global__ void gemm_f16_f16(const uint16_t* a16, const uint16_t* b16, uint16_t* c16) {
#ifndef __HIP__
  const half *a = HALF(a16), *b = HALF(b16);
  half* c = reinterpret_cast<half*>(c16);
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, half> fc;
  wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);  // row-major B: row k at b + 16 k
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
#endif
}
__global__ void gemm_bf16(const uint16_t* a16, const uint16_t* b16, float* c) {
#ifndef __HIP__
  const __nv_bfloat16 *a = BF16(a16), *b = BF16(b16);
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_col_major);  // C stored column-major
#endif
}
__global__ void gemm_tf32(const float* a, const float* b, float* c) {
#ifndef __HIP__
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::load_matrix_sync(fa, a, 8);
  wmma::load_matrix_sync(fb, b, 8);
  for (int i = 0; i < fa.num_elements; i++) fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
  for (int i = 0; i < fb.num_elements; i++) fb.x[i] = wmma::__float_to_tf32(fb.x[i]);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
#endif
}
template <typename T>
__global__ void gemm_int8(const T* a, const T* b, int* c) {
#ifndef __HIP__
  wmma::fragment<wmma::matrix_a, 16, 16, 16, T, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, T, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, int> fc;
  wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
#endif
}
__global__ void gemm_f64(const double* a, const double* b, double* c) {
#ifndef __HIP__
  wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 8, 8, 4, double> fc;
  wmma::load_matrix_sync(fc, c, 8, wmma::mem_row_major);
  wmma::load_matrix_sync(fa, a, 4);
  wmma::load_matrix_sync(fb, b, 4);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 8, wmma::mem_row_major);
#endif
}

static int failures = 0;

// f16 and bf16 bits of values they hold exactly (small multiples of powers of two), and back.
static uint16_t f16_bits(double x) {
  if (x == 0) return 0;
  const float f = (float)x;
  uint32_t b;
  memcpy(&b, &f, 4);
  return (uint16_t)(((b >> 16) & 0x8000u) | ((((b >> 23) & 0xff) - 127 + 15) << 10) | ((b >> 13) & 0x3ffu));
}
static double f16_value(uint16_t h) {
  const int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  const double v = e == 0 ? m / 16777216.0 : (1024 + m) * (double)(1 << e) / (1 << 25);
  return (h & 0x8000u) ? -v : v;
}
static uint16_t bf16_bits(double x) {
  const float f = (float)x;
  uint32_t b;
  memcpy(&b, &f, 4);
  return (uint16_t)(b >> 16);
}
static unsigned seed = 2024;
static int next_int(int lo, int hi) {
  seed = seed * 1103515245u + 12345u;
  return lo + (int)((seed >> 16) % (unsigned)(hi - lo + 1));
}
template <typename T>
static T* to_device(const std::vector<T>& v) {
  T* p;
  cudaMalloc(&p, v.size() * sizeof(T));
  cudaMemcpy(p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice);
  return p;
}
template <typename T>
static std::vector<T> from_device(const T* p, size_t n) {
  std::vector<T> v(n);
  cudaMemcpy(v.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost);
  return v;
}
static void report(const char* name, int bad) {
  printf("%s: %s\n", name, bad ? "FAIL" : "ok");
  failures += bad != 0;
}

// a(i, k) at a[i * lda + k] (row-major A); b(k, j) at b[k + j * ldb] (column-major) or b[k * ldb + j].
static double product(const std::vector<double>& a, int lda, const std::vector<double>& b, int ldb, bool b_col_major, int i, int j, int K) {
  double s = 0;
  for (int k = 0; k < K; ++k) s += a[i * lda + k] * (b_col_major ? b[k + j * ldb] : b[k * ldb + j]);
  return s;
}

int main() {
  {  // f16 x f16 + f32, K = 32 in two steps
    std::vector<double> a(16 * 32), b(32 * 16), c(16 * 16);
    for (auto& x : a) x = next_int(-6, 6) / 2.0;
    for (auto& x : b) x = next_int(-6, 6) / 2.0;
    for (auto& x : c) x = next_int(-50, 50) / 4.0;
    std::vector<uint16_t> ah, bh;
    for (double x : a) ah.push_back(f16_bits(x));
    for (double x : b) bh.push_back(f16_bits(x));
    std::vector<float> cf(c.begin(), c.end());
    uint16_t *da = to_device(ah), *db = to_device(bh);
    float* dc = to_device(cf);
    gemm_f16_f32<<<1, 32>>>(da, db, dc);
    std::vector<float> r = from_device(dc, 256);
    int bad = 0;
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 16; ++j) bad += r[i * 16 + j] != (float)(c[i * 16 + j] + product(a, 32, b, 32, true, i, j, 32));
    report("f16_f32", bad);
  }
  {  // f16 x f16 + f16, row-major B
    std::vector<double> a(256), b(256), c(256);
    for (auto& x : a) x = next_int(-4, 4);
    for (auto& x : b) x = next_int(-4, 4) / 2.0;
    for (auto& x : c) x = next_int(-20, 20);
    std::vector<uint16_t> ah, bh, ch;
    for (double x : a) ah.push_back(f16_bits(x));
    for (double x : b) bh.push_back(f16_bits(x));
    for (double x : c) ch.push_back(f16_bits(x));
    uint16_t *da = to_device(ah), *db = to_device(bh), *dc = to_device(ch);
    gemm_f16_f16<<<1, 32>>>(da, db, dc);
    std::vector<uint16_t> r = from_device(dc, 256);
    int bad = 0;
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 16; ++j) bad += f16_value(r[i * 16 + j]) != c[i * 16 + j] + product(a, 16, b, 16, false, i, j, 16);
    report("f16_f16", bad);
  }
  {  // bf16, C stored column-major
    std::vector<double> a(256), b(256);
    for (auto& x : a) x = next_int(-8, 8) / 4.0;
    for (auto& x : b) x = next_int(-8, 8);
    std::vector<uint16_t> ab, bb;
    for (double x : a) ab.push_back(bf16_bits(x));
    for (double x : b) bb.push_back(bf16_bits(x));
    uint16_t *da = to_device(ab), *db = to_device(bb);
    float* dc = to_device(std::vector<float>(256, -1.0f));
    gemm_bf16<<<1, 32>>>(da, db, dc);
    std::vector<float> r = from_device(dc, 256);
    int bad = 0;
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 16; ++j) bad += r[i + 16 * j] != (float)product(a, 16, b, 16, true, i, j, 16);
    report("bf16", bad);
  }
  {  // tf32, m16n16k8 (values tf32 holds exactly, so __float_to_tf32 keeps them)
    std::vector<double> a(16 * 8), b(8 * 16);
    for (auto& x : a) x = next_int(-20, 20) / 8.0;
    for (auto& x : b) x = next_int(-20, 20) / 8.0;
    std::vector<float> af(a.begin(), a.end()), bf(b.begin(), b.end());
    float *da = to_device(af), *db = to_device(bf), *dc = to_device(std::vector<float>(256, 0));
    gemm_tf32<<<1, 32>>>(da, db, dc);
    std::vector<float> r = from_device(dc, 256);
    int bad = 0;
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 16; ++j) bad += r[i * 16 + j] != (float)product(a, 8, b, 8, true, i, j, 8);
    report("tf32", bad);
  }
  {  // s8 and u8 with int32 C
    std::vector<double> a(256), b(256), c(256);
    for (auto& x : a) x = next_int(-128, 127);
    for (auto& x : b) x = next_int(-128, 127);
    for (auto& x : c) x = next_int(-100000, 100000);
    std::vector<signed char> as(a.begin(), a.end()), bs(b.begin(), b.end());
    std::vector<int> ci(c.begin(), c.end());
    signed char *da = to_device(as), *db = to_device(bs);
    int* dc = to_device(ci);
    gemm_int8<signed char><<<1, 32>>>(da, db, dc);
    std::vector<int> r = from_device(dc, 256);
    int bad = 0;
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 16; ++j) bad += r[i * 16 + j] != (int)(c[i * 16 + j] + product(a, 16, b, 16, true, i, j, 16));
    report("s8", bad);
    for (auto& x : a) x = next_int(0, 255);
    for (auto& x : b) x = next_int(0, 255);
    std::vector<unsigned char> au(a.begin(), a.end()), bu(b.begin(), b.end());
    unsigned char *dua = to_device(au), *dub = to_device(bu);
    int* duc = to_device(ci);
    gemm_int8<unsigned char><<<1, 32>>>(dua, dub, duc);
    r = from_device(duc, 256);
    bad = 0;
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 16; ++j) bad += r[i * 16 + j] != (int)(c[i * 16 + j] + product(a, 16, b, 16, true, i, j, 16));
    report("u8", bad);
  }
  {  // f64 m8n8k4
    std::vector<double> a(32), b(32), c(64);
    for (auto& x : a) x = next_int(-1000, 1000) / 64.0;
    for (auto& x : b) x = next_int(-1000, 1000) / 64.0;
    for (auto& x : c) x = next_int(-1000, 1000) / 8.0;
    double *da = to_device(a), *db = to_device(b), *dc = to_device(c);
    gemm_f64<<<1, 32>>>(da, db, dc);
    std::vector<double> r = from_device(dc, 64);
    int bad = 0;
    for (int i = 0; i < 8; ++i)
      for (int j = 0; j < 8; ++j) bad += r[i * 8 + j] != c[i * 8 + j] + product(a, 4, b, 4, true, i, j, 4);
    report("f64", bad);
  }
  printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
