// The warp-collective matrix moves from inline PTX: ldmatrix (x4, x2.trans, x1) and movmatrix, one
// warp. Lane l gives the address of one 16-byte row (at byte rows[l] of a shared array the kernel
// fills from `src`); the host checks every lane's registers against PTX's ldmatrix fragment layout.
#include <cstdint>
#include <cstdio>
#include <vector>

#define LANE threadIdx.x
#define R(p, j) (p)[(j) * 32 + LANE]

// Results lane-major (register j of lane l at [j*32 + l]): x4 (4 registers), x2.trans (2), x1 (1),
// movmatrix of x4's first.
__global__ void ldsm(const uint32_t* src, const uint32_t* rows, uint32_t* d) {
  __shared__ uint32_t s[1024];
  for (int i = 0; i < 32; ++i) R(s, i) = R(src, i);
  __syncthreads();
  unsigned base;
  asm("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }" : "=r"(base) : "l"(s));
  base += rows[LANE];
  uint32_t x0, x1, x2, x3, t0, t1, o0, m0;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(x0), "=r"(x1), "=r"(x2), "=r"(x3) : "r"(base));
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(t0), "=r"(t1) : "r"(base));
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(o0) : "r"(base));
  asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(m0) : "r"(x0));
  R(d, 0) = x0, R(d, 1) = x1, R(d, 2) = x2, R(d, 3) = x3, R(d, 4) = t0, R(d, 5) = t1, R(d, 6) = o0, R(d, 7) = m0;
}

template <typename T>
static T* to_device(const std::vector<T>& v) {
  T* p;
  cudaMalloc(&p, v.size() * sizeof(T));
  cudaMemcpy(p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice);
  return p;
}

int main() {

  // 4 matrices of 8 rows; row r of matrix q (the address lane 8q + r gives) at a scattered place;
  // element (q, r, col) = 1000 q + 10 r + col.
  std::vector<uint32_t> halves(2048, 0), rows(32);
  for (int l = 0; l < 32; ++l) {
    rows[l] = (uint32_t)(((l * 5) % 32) * 128 + 16 * (l % 3));
    for (int col = 0; col < 8; ++col) halves[rows[l] / 2 + col] = (uint32_t)(1000 * (l / 8) + 10 * (l % 8) + col);
  }
  std::vector<uint32_t> src(1024);  // lane-major words: word j*32 + l of the shared array
  for (int w = 0; w < 1024; ++w) src[w] = halves[2 * w] | (halves[2 * w + 1] << 16);
  uint32_t *ds = to_device(src), *dr = to_device(rows), *dd = to_device(std::vector<uint32_t>(8 * 32, 0));
  ldsm<<<1, 32>>>(ds, dr, dd);
  std::vector<uint32_t> d(8 * 32);
  cudaMemcpy(d.data(), dd, d.size() * sizeof(uint32_t), cudaMemcpyDeviceToHost);
  auto element = [](int q, int r, int col) { return (uint32_t)(1000 * q + 10 * r + col); };
  int bad = 0;
  for (int l = 0; l < 32; ++l) {
    const int g = l / 4, t = l % 4;
    uint32_t want[8];
    for (int q = 0; q < 4; ++q) want[q] = element(q, g, 2 * t) | (element(q, g, 2 * t + 1) << 16);  // x4
    for (int q = 0; q < 2; ++q) want[4 + q] = element(q, 2 * t, g) | (element(q, 2 * t + 1, g) << 16);  // x2.trans
    want[6] = want[0];                                                                         // x1
    want[7] = element(0, 2 * t, g) | (element(0, 2 * t + 1, g) << 16);                         // movmatrix
    for (int j = 0; j < 8; ++j)
      if (d[j * 32 + l] != want[j] && bad++ < 4) printf("ldsm: lane %d register %d = %08x, expected %08x\n", l, j, d[j * 32 + l], want[j]);
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}

