// Blackwell (sm_100, sm_120) instruction forms that CUDA 13 emits and CUDA 11.8's architectures
// lack: 64-bit integer adds, compares, selects and min/max on register pairs (IADD.64, ISETP.U64,
// SEL.64, IMNMX.U64), three-source and fused add-min/max (VIMNMX3, VIADDMNMX, FMNMX3), .RELU,
// uniform-datapath float (UFFMA, UFMUL), CREDUX, 64-bit immediates (MOV.64), 128-bit uniform
// constant loads (LDCU.128) and bank 4, the table of global addresses. Each kernel's results are
// checked against the same code on the host.
#include <cstdio>
#include <cstdint>
#include <cstring>

__constant__ int4 c_quad[2];
__device__ unsigned long long d_table[8] = {3, 1, 4, 1, 5, 9, 2, 6};

struct Out {
  unsigned long long sum64, min64, sel64, count64;
  int min3, max3, relu, addmin, redmin;
  float fmin3, uscale;
  double dconst;
  int quad;
  unsigned long long table;
};

__host__ __device__ void compute(int t, const long long* a, const int* b, float s, long long n, int q0, int q1,
                                 Out& o) {
  unsigned long long x = static_cast<unsigned long long>(a[t]), y = static_cast<unsigned long long>(a[t + 1]);
  o.sum64 = x + y + 0x100000000ull;
  o.min64 = x < y ? x : y;
  o.sel64 = static_cast<long long>(x) > n ? x : ~0ull;
  unsigned long long c = 0;
  for (unsigned long long i = x & 7; i < (y & 15) + 1; ++i) c += i;
  o.count64 = c;
  o.min3 = min(min(b[t], b[t + 1]), b[t + 2]);
  o.max3 = max(max(b[t], b[t + 1]), b[t + 2]);
  o.relu = max(min(b[t], b[t + 1]), 0);
  o.addmin = min(b[t] + b[t + 3], b[t + 1]);
  o.fmin3 = fminf(fminf(s * t, 1.5f - t), 0.25f * b[t]);
  o.uscale = s * s * 0.5f + 999.99f;
  o.dconst = 1.0 / (3.0 + t) + 0.9;
  o.quad = q0 + q1;
  o.redmin = 0;
  o.table = 0;
}

// 64-bit trip counts and indices: the loop bound and induction variable are register pairs.
__global__ void wide(const long long* a, long long n, unsigned long long floor, unsigned long long* out) {
  unsigned long long acc = 0;
  for (long long i = threadIdx.x; i < n; i += blockDim.x) {
    const unsigned long long v = static_cast<unsigned long long>(a[i]);
    acc += v > floor ? v : floor;
  }
  out[threadIdx.x] = acc;
}

__constant__ float c_coef[8] = {0.5f, -1.0f, 2.0f, 0.25f, 1.5f, -0.75f, 3.0f, 0.125f};

// Constant-bank data read four words at a time (LDCU.128 on Blackwell).
__global__ void dot8(const float* x, float* out) {
  float acc = 0.0f;
#pragma unroll
  for (int k = 0; k < 8; ++k) acc += c_coef[k] * x[threadIdx.x + k];
  out[threadIdx.x] = acc;
}

__global__ void forms(const long long* a, const int* b, float s, long long n, int pick, Out* out) {
  int t = threadIdx.x;
  Out o;
  compute(t, a, b, s, n, c_quad[pick].x + c_quad[pick].w, c_quad[pick ^ 1].y, o);
  o.redmin = __reduce_min_sync(0xffffffffu, b[t]);
  o.table = d_table[(t + pick) & 7];
  out[t] = o;
}

int main() {
  const int threads = 32;
  long long ha[threads + 1];
  int hb[threads + 3];
  for (int i = 0; i < threads + 1; ++i) ha[i] = (i * 0x9e3779b97f4a7c15ll) >> (i % 5);
  for (int i = 0; i < threads + 3; ++i) hb[i] = (i * 37 % 23) - 11;
  int4 hq[2] = {{1, 2, 3, 4}, {50, 60, 70, 80}};
  cudaMemcpyToSymbol(c_quad, hq, sizeof hq);
  long long* da;
  int* db;
  Out* dout;
  cudaMalloc(&da, sizeof ha);
  cudaMalloc(&db, sizeof hb);
  cudaMalloc(&dout, threads * sizeof(Out));
  cudaMemcpy(da, ha, sizeof ha, cudaMemcpyHostToDevice);
  cudaMemcpy(db, hb, sizeof hb, cudaMemcpyHostToDevice);
  const float s = 1.25f;
  const long long n = 1ll << 40;
  const int pick = 1;
  forms<<<1, threads>>>(da, db, s, n, pick, dout);
  Out h[threads];
  cudaMemcpy(h, dout, sizeof h, cudaMemcpyDeviceToHost);
  const unsigned long long table[8] = {3, 1, 4, 1, 5, 9, 2, 6};
  int redmin = hb[0];
  for (int i = 0; i < threads; ++i) redmin = hb[i] < redmin ? hb[i] : redmin;
  int bad = 0;
  for (int t = 0; t < threads; ++t) {
    Out e;
    compute(t, ha, hb, s, n, hq[pick].x + hq[pick].w, hq[pick ^ 1].y, e);
    e.redmin = redmin;
    e.table = table[(t + pick) & 7];
    if (std::memcmp(&e, &h[t], sizeof e) != 0) {
      if (bad++ < 4)
        std::printf("thread %d: sum %llx/%llx min %llx/%llx sel %llx/%llx count %llu/%llu min3 %d/%d max3 %d/%d relu %d/%d addmin %d/%d "
                    "fmin3 %g/%g uscale %g/%g dconst %g/%g quad %d/%d redmin %d/%d table %llu/%llu\n",
                    t, e.sum64, h[t].sum64, e.min64, h[t].min64, e.sel64, h[t].sel64, e.count64, h[t].count64, e.min3, h[t].min3,
                    e.max3, h[t].max3, e.relu, h[t].relu, e.addmin, h[t].addmin, e.fmin3, h[t].fmin3, e.uscale, h[t].uscale,
                    e.dconst, h[t].dconst, e.quad, h[t].quad, e.redmin, h[t].redmin, e.table, h[t].table);
    }
  }

  // wide: 64-bit loop over 1000 values.
  const int count = 1000;
  long long hw[count];
  for (int i = 0; i < count; ++i) hw[i] = (i * 0x5851f42d4c957f2dll) ^ (1ll << (i % 63));
  long long* dw;
  unsigned long long* dacc;
  cudaMalloc(&dw, sizeof hw);
  cudaMalloc(&dacc, threads * sizeof(unsigned long long));
  cudaMemcpy(dw, hw, sizeof hw, cudaMemcpyHostToDevice);
  const unsigned long long floor = 1ull << 62;
  wide<<<1, threads>>>(dw, count, floor, dacc);
  unsigned long long hacc[threads];
  cudaMemcpy(hacc, dacc, sizeof hacc, cudaMemcpyDeviceToHost);
  for (int t = 0; t < threads; ++t) {
    unsigned long long e = 0;
    for (int i = t; i < count; i += threads) e += static_cast<unsigned long long>(hw[i]) > floor ? static_cast<unsigned long long>(hw[i]) : floor;
    if (e != hacc[t] && bad++ < 8) std::printf("wide thread %d: %llx, expected %llx\n", t, hacc[t], e);
  }

  // dot8
  float hx[threads + 8], hd[threads];
  for (int i = 0; i < threads + 8; ++i) hx[i] = 0.5f * i - 3.0f;
  float *dx, *dd;
  cudaMalloc(&dx, sizeof hx);
  cudaMalloc(&dd, sizeof hd);
  cudaMemcpy(dx, hx, sizeof hx, cudaMemcpyHostToDevice);
  dot8<<<1, threads>>>(dx, dd);
  cudaMemcpy(hd, dd, sizeof hd, cudaMemcpyDeviceToHost);
  const float coef[8] = {0.5f, -1.0f, 2.0f, 0.25f, 1.5f, -0.75f, 3.0f, 0.125f};
  for (int t = 0; t < threads; ++t) {
    float e = 0.0f;
    for (int k = 0; k < 8; ++k) e += coef[k] * hx[t + k];
    if (e != hd[t] && bad++ < 8) std::printf("dot8 thread %d: %g, expected %g\n", t, hd[t], e);
  }
  std::printf("%s\n", bad == 0 ? "PASS" : "FAIL");
  return bad == 0 ? 0 : 1;
}
