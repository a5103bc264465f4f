// Sub-byte tensor-core instructions from inline PTX mma.sync, one warp each: s4/u4 (IMMA.16864,
// IMMA.8832, .SAT) and single bits with XOR or AND and population count (BMMA.168256, BMMA.88128).
// As in mma-sync.cu the host packs every lane's fragments with the PTX ISA's fragment tables (lane-
// major: register j of lane l at [j*32 + l]) and checks D against its own CPU product. sm_80..sm_89
// only: nvcc 11.8 emulates these shapes for sm_90 in a subroutine of other instructions.
#include <cstdint>
#include <cstdio>
#include <vector>

#define LANE threadIdx.x
#define R(p, j) (p)[(j) * 32 + LANE]
// m16n8: A 4 registers, B 2, C and D 4.
#define M16N8_BODY(ptx)                                                                                                 \
  uint32_t d0, d1, d2, d3;                                                                                              \
  asm volatile(ptx " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"                                         \
               : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)                                                                 \
               : "r"(R(a, 0)), "r"(R(a, 1)), "r"(R(a, 2)), "r"(R(a, 3)), "r"(R(b, 0)), "r"(R(b, 1)), "r"(R(c, 0)),      \
                 "r"(R(c, 1)), "r"(R(c, 2)), "r"(R(c, 3)));                                                             \
  R(d, 0) = d0, R(d, 1) = d1, R(d, 2) = d2, R(d, 3) = d3;
// m8n8: A 1 register, B 1, C and D 2.
#define M8N8_BODY(ptx)                                                                                                  \
  uint32_t d0, d1;                                                                                                      \
  asm volatile(ptx " {%0,%1}, {%2}, {%3}, {%4,%5};" : "=r"(d0), "=r"(d1) : "r"(R(a, 0)), "r"(R(b, 0)), "r"(R(c, 0)), "r"(R(c, 1))); \
  R(d, 0) = d0, R(d, 1) = d1;

__global__ void s4_16864(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* d) {
  M16N8_BODY("mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32")
}
__global__ void u4_16864_sat(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* d) {
  M16N8_BODY("mma.sync.aligned.m16n8k64.row.col.satfinite.s32.u4.u4.s32")
}
__global__ void s4_8832(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* d) {
  M8N8_BODY("mma.sync.aligned.m8n8k32.row.col.s32.s4.s4.s32")
}
__global__ void b1_xor_168256(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* d) {
  M16N8_BODY("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.xor.popc")
}
__global__ void b1_and_168256(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* d) {
  M16N8_BODY("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc")
}
__global__ void b1_xor_88128(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* d) {
  M8N8_BODY("mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.xor.popc")
}

// ---- host -----------------------------------------------------------------------------------------
static int failures = 0;

// Where fragment element i of lane l is: row and column of its matrix (g = l / 4, t = l % 4).
struct Place { int row, col; };
typedef Place (*Layout)(int l, int i);
static Place c_frag(int l, int i) { return {l / 4 + 8 * (i / 2), 2 * (l % 4) + (i & 1)}; }
static Place a_16864(int l, int i) { return {l / 4 + ((i / 8) % 2) * 8, 8 * (l % 4) + (i & 7) + (i >= 16) * 32}; }
static Place b_16864(int l, int i) { return {8 * (l % 4) + (i & 7) + (i >= 8) * 32, l / 4}; }
static Place a_8832(int l, int i) { return {l / 4, 8 * (l % 4) + i}; }
static Place b_8832(int l, int i) { return {8 * (l % 4) + i, l / 4}; }
static Place a_168256(int l, int i) { return {l / 4 + ((i / 32) % 2) * 8, 32 * (l % 4) + (i & 31) + (i >= 64) * 128}; }
static Place b_168256(int l, int i) { return {32 * (l % 4) + (i & 31) + (i >= 32) * 128, l / 4}; }
static Place a_88128(int l, int i) { return {l / 4, 32 * (l % 4) + i}; }
static Place b_88128(int l, int i) { return {32 * (l % 4) + i, l / 4}; }

// Packs element codes (bits wide each) of a rows x cols matrix into lane-major registers.
static std::vector<uint32_t> pack(const std::vector<int>& codes, int cols, Layout at, int elements, int bits) {
  const int per_word = 32 / bits;
  const uint32_t mask = (1u << bits) - 1;
  std::vector<uint32_t> regs(elements / per_word * 32, 0);
  for (int l = 0; l < 32; ++l)
    for (int i = 0; i < elements; ++i) {
      Place p = at(l, i);
      regs[(i / per_word) * 32 + l] |= ((uint32_t)codes[p.row * cols + p.col] & mask) << (bits * (i % per_word));
    }
  return regs;
}

static uint32_t* to_device(const std::vector<uint32_t>& v) {
  uint32_t* p;
  cudaMalloc(&p, v.size() * sizeof(uint32_t));
  cudaMemcpy(p, v.data(), v.size() * sizeof(uint32_t), cudaMemcpyHostToDevice);
  return p;
}

static unsigned seed = 777;
static int next_int(int lo, int hi) {
  seed = seed * 1103515245u + 12345u;
  return lo + (int)((seed >> 16) % (unsigned)(hi - lo + 1));
}

typedef void (*Kernel)(const uint32_t*, const uint32_t*, const uint32_t*, uint32_t*);
enum Op { MULTIPLY, AND, XOR };

// A (m x k) and B (k x 8) of `bits`-wide elements in [lo, hi]; D = C + sum of a*b (or popc of AND/XOR).
static void run_case(const char* name, Kernel kernel, int m, int k, int bits, int lo, int hi, Op op, bool saturate, Layout a_at, Layout b_at) {
  std::vector<int> a(m * k), b(k * 8), c(m * 8);
  for (auto& x : a) x = next_int(lo, hi);
  for (auto& x : b) x = next_int(lo, hi);
  for (auto& x : c) x = next_int(-100000, 100000);
  if (saturate) c[0] = 0x7fffffff - 5, c[8] = 0x7fffffff - 5;  // rows 0 and 1, column 0: clamp
  std::vector<uint32_t> ar = pack(a, k, a_at, m * k / 32, bits), br = pack(b, 8, b_at, 8 * k / 32, bits);
  std::vector<uint32_t> cr(m / 4 * 32);
  for (int l = 0; l < 32; ++l)
    for (int i = 0; i < m / 4; ++i) cr[i * 32 + l] = (uint32_t)c[c_frag(l, i).row * 8 + c_frag(l, i).col];
  uint32_t *da = to_device(ar), *db = to_device(br), *dc = to_device(cr), *dd = to_device(std::vector<uint32_t>(cr.size(), 0));
  kernel<<<1, 32>>>(da, db, dc, dd);
  std::vector<uint32_t> dr(cr.size());
  cudaMemcpy(dr.data(), dd, dr.size() * sizeof(uint32_t), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int l = 0; l < 32; ++l)
    for (int i = 0; i < m / 4; ++i) {
      Place p = c_frag(l, i);
      long long expected = c[p.row * 8 + p.col];
      for (int j = 0; j < k; ++j) {
        const int x = a[p.row * k + j], y = b[j * 8 + p.col];
        expected += op == MULTIPLY ? (long long)x * y : op == AND ? (x & y) : (x ^ y);
      }
      if (saturate && expected > 0x7fffffffll) expected = 0x7fffffffll;
      const int got = (int)dr[i * 32 + l];
      if (got != (int)(uint32_t)expected && bad++ < 4) printf("%s: D[%d][%d] = %d, expected %lld\n", name, p.row, p.col, got, expected);
    }
  printf("%s: %s\n", name, bad ? "FAIL" : "ok");
  failures += bad != 0;
}

int main() {
  run_case("s4_16864", s4_16864, 16, 64, 4, -8, 7, MULTIPLY, false, a_16864, b_16864);
  run_case("u4_16864_sat", u4_16864_sat, 16, 64, 4, 0, 15, MULTIPLY, true, a_16864, b_16864);
  run_case("s4_8832", s4_8832, 8, 32, 4, -8, 7, MULTIPLY, false, a_8832, b_8832);
  run_case("b1_xor_168256", b1_xor_168256, 16, 256, 1, 0, 1, XOR, false, a_168256, b_168256);
  run_case("b1_and_168256", b1_and_168256, 16, 256, 1, 0, 1, AND, false, a_168256, b_168256);
  run_case("b1_xor_88128", b1_xor_88128, 8, 128, 1, 0, 1, XOR, false, a_88128, b_88128);
  printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
