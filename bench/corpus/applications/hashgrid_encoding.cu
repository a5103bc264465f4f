// Multi-resolution hash-grid encoding (instant-NGP style). L = 16 levels, each a table of
// 2^T entries of F = 2 features (T = 19); level l has resolution N_l = floor(Nmin * b^l) with
// Nmin = 16, Nmax = 2048, b = exp((ln Nmax - ln Nmin) / (L - 1)). A point x in [0,1)^3 is
// scaled by N_l; the 8 surrounding grid vertices (0..N_l per axis) are looked up - densely
// (x0 + x1 (N_l+1) + x2 (N_l+1)^2) where (N_l+1)^3 <= 2^T, otherwise through the spatial hash
// (x0 * 1 ^ x1 * 2654435761 ^ x2 * 805459861) mod 2^T in uint32 - and their features are
// trilinearly interpolated. One thread per (point, level); output is level-major
// ([L][N] float2), so the stores of a warp are coalesced.
#include "../include/corpus.cuh"

#include <algorithm>

constexpr int kLevels = 16;
constexpr int kLog2T = 19;
constexpr unsigned int kTableSize = 1u << kLog2T;
constexpr int kFeat = 2;

__constant__ int c_res[kLevels];

__host__ __device__ inline unsigned int grid_index(unsigned int x0, unsigned int x1,
                                                   unsigned int x2, unsigned int res) {
  const unsigned int side = res + 1;
  // side^3 fits in uint32 for every level (Nmax = 2048), and dense levels have side^3 <= 2^T.
  if (static_cast<unsigned long long>(side) * side * side <= kTableSize)
    return x0 + x1 * side + x2 * side * side;
  return (x0 * 1u ^ x1 * 2654435761u ^ x2 * 805459861u) & (kTableSize - 1u);
}

__global__ void hashgrid_encode(const float* __restrict__ pos, int n,
                                const float2* __restrict__ table, float2* __restrict__ out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int level = blockIdx.y;
  if (i >= n) return;
  const unsigned int res = static_cast<unsigned int>(c_res[level]);
  const float2* tab = table + static_cast<size_t>(level) * kTableSize;

  unsigned int base[3];
  float frac[3];
  for (int d = 0; d < 3; ++d) {
    const float p = pos[3 * i + d] * static_cast<float>(res);  // in [0, res)
    const float f = floorf(p);
    base[d] = min(static_cast<unsigned int>(f), res - 1u);  // guard; x < 1 keeps p < res
    frac[d] = p - f;
  }
  float2 acc = make_float2(0.0f, 0.0f);
#pragma unroll
  for (int corner = 0; corner < 8; ++corner) {
    float w = 1.0f;
    unsigned int c[3];
#pragma unroll
    for (int d = 0; d < 3; ++d) {
      const bool hi = (corner >> d) & 1;
      c[d] = base[d] + (hi ? 1u : 0u);
      w *= hi ? frac[d] : 1.0f - frac[d];
    }
    const float2 v = tab[grid_index(c[0], c[1], c[2], res)];
    acc.x += w * v.x;
    acc.y += w * v.y;
  }
  out[static_cast<size_t>(level) * n + i] = acc;
}

int main() {
  const int n = corpus::sized(256 * 1024, 4096);  // emulated: 16 x 16 blocks, same tables
  const double nmin = 16.0, nmax = 2048.0;
  const double b = std::exp((std::log(nmax) - std::log(nmin)) / (kLevels - 1));
  int h_res[kLevels];
  for (int l = 0; l < kLevels; ++l) h_res[l] = static_cast<int>(std::floor(nmin * std::pow(b, l) + 1e-9));

  corpus::Rng rng(0x1A5Bu);
  std::vector<float> h_pos(3 * static_cast<size_t>(n));
  for (auto& p : h_pos) p = rng.uniform();
  const size_t entries = static_cast<size_t>(kLevels) * kTableSize;
  std::vector<float> h_table(entries * kFeat);
  for (auto& t : h_table) t = rng.uniform(-1.0f, 1.0f);  // trained-table-like magnitudes

  float *d_pos, *d_table, *d_out;
  CORPUS_CHECK(cudaMalloc(&d_pos, h_pos.size() * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&d_table, h_table.size() * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&d_out, static_cast<size_t>(kLevels) * n * kFeat * sizeof(float)));
  CORPUS_CHECK(cudaMemcpy(d_pos, h_pos.data(), h_pos.size() * sizeof(float), cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(d_table, h_table.data(), h_table.size() * sizeof(float), cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpyToSymbol(c_res, h_res, sizeof(h_res)));

  const dim3 threads(256);
  const dim3 blocks((n + threads.x - 1) / threads.x, kLevels);
  const float2* table2 = reinterpret_cast<const float2*>(d_table);
  float2* out2 = reinterpret_cast<float2*>(d_out);
  hashgrid_encode<<<blocks, threads>>>(d_pos, n, table2, out2);  // warm-up
  CORPUS_CHECK_LAUNCH();
  CORPUS_CHECK(cudaDeviceSynchronize());

  const int reps = corpus::reps(20);
  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) {
    hashgrid_encode<<<blocks, threads>>>(d_pos, n, table2, out2);
    CORPUS_CHECK_LAUNCH();
  }
  const float gpu_ms = timer.stop();

  std::vector<float> h_out(static_cast<size_t>(kLevels) * n * kFeat);
  CORPUS_CHECK(cudaMemcpy(h_out.data(), d_out, h_out.size() * sizeof(float), cudaMemcpyDeviceToHost));

  // CPU reference: same indices and fractions (computed in float exactly as on the GPU: one
  // multiply and floor), weights and sums in double. Tolerance 1e-5 relative with a floor of
  // 0.1 (absolute 1e-6 below it): the GPU sums 8 weighted features (|w| <= 1, |f| <= 1) in
  // float, a few ulp of 1 (< 1e-6), while interpolated values can cancel towards zero.
  double worst = 0.0;
  for (int l = 0; l < kLevels; ++l) {
    const unsigned int res = static_cast<unsigned int>(h_res[l]);
    const float* tab = h_table.data() + static_cast<size_t>(l) * kTableSize * kFeat;
    for (int i = 0; i < n; ++i) {
      unsigned int base[3];
      double frac[3];
      for (int d = 0; d < 3; ++d) {
        const float p = h_pos[3 * static_cast<size_t>(i) + d] * static_cast<float>(res);
        const float f = std::floor(p);
        base[d] = std::min(static_cast<unsigned int>(f), res - 1u);
        frac[d] = static_cast<double>(p - f);
      }
      double acc0 = 0.0, acc1 = 0.0;
      for (int corner = 0; corner < 8; ++corner) {
        double w = 1.0;
        unsigned int c[3];
        for (int d = 0; d < 3; ++d) {
          const bool hi = (corner >> d) & 1;
          c[d] = base[d] + (hi ? 1u : 0u);
          w *= hi ? frac[d] : 1.0 - frac[d];
        }
        const size_t idx = grid_index(c[0], c[1], c[2], res);
        acc0 += w * tab[2 * idx];
        acc1 += w * tab[2 * idx + 1];
      }
      const size_t o = (static_cast<size_t>(l) * n + i) * kFeat;
      worst = std::max(worst, corpus::rel_err(h_out[o], acc0, 0.1));
      worst = std::max(worst, corpus::rel_err(h_out[o + 1], acc1, 0.1));
      if (std::isnan(h_out[o]) || std::isnan(h_out[o + 1])) worst = INFINITY;
    }
  }
  const bool pass = worst <= 1e-5;

  CORPUS_CHECK(cudaFree(d_pos));
  CORPUS_CHECK(cudaFree(d_table));
  CORPUS_CHECK(cudaFree(d_out));
  return corpus::report("hashgrid_encoding", pass, worst, gpu_ms);
}
