// Smith-Waterman local alignment with affine gaps (Gotoh) for many short DNA query/target
// pairs, one thread per pair. The query length is a template parameter so the per-thread
// column of H and E scores stays in registers; targets have varying lengths. The kernel walks
// the target in the outer loop, the CPU reference walks the query in the outer loop with full
// rows, so the two orders differ. Scores are integers and must match exactly.
#include "../include/corpus.cuh"

#include <algorithm>

namespace {

constexpr int kQueryLen = 64;
constexpr int kMaxTarget = 160;
constexpr int kPairs = 4096;
constexpr int kMatch = 2, kMismatch = -1, kGapOpen = 3, kGapExtend = 1;  // gap of k costs 3 + (k-1)
constexpr int kNegInf = -1000000;
constexpr int kReps = 10;

template <int M>
__global__ void sw_kernel(const uint8_t* __restrict__ queries, const uint8_t* __restrict__ targets,
                          const int* __restrict__ target_lens, int* __restrict__ scores, int pairs) {
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= pairs) return;
  uint8_t q[M];
  int h_col[M], e_col[M];  // H[i][j-1] and E[i][j-1] for the current column j
#pragma unroll
  for (int i = 0; i < M; ++i) {
    q[i] = queries[static_cast<size_t>(p) * M + i];
    h_col[i] = 0;
    e_col[i] = kNegInf;
  }
  const uint8_t* t = targets + static_cast<size_t>(p) * kMaxTarget;
  const int n = target_lens[p];
  int best = 0;
  for (int j = 0; j < n; ++j) {
    const uint8_t tj = t[j];
    int diag = 0;     // H[i-1][j-1]; row 0 is zero
    int h_up = 0;     // H[i-1][j]
    int f = kNegInf;  // F[i-1][j], gap along the query
#pragma unroll
    for (int i = 0; i < M; ++i) {
      const int e = max(e_col[i] - kGapExtend, h_col[i] - kGapOpen);
      f = max(f - kGapExtend, h_up - kGapOpen);
      const int s = (q[i] == tj) ? kMatch : kMismatch;
      const int h = max(max(0, diag + s), max(e, f));
      diag = h_col[i];
      h_col[i] = h;
      e_col[i] = e;
      h_up = h;
      best = max(best, h);
    }
  }
  scores[p] = best;
}

// CPU Gotoh, query rows outer, target columns inner.
int cpu_sw(const uint8_t* q, int m, const uint8_t* t, int n) {
  std::vector<int> h_prev(n + 1, 0), h_cur(n + 1, 0), f_prev(n + 1, kNegInf), f_cur(n + 1, kNegInf);
  int best = 0;
  for (int i = 1; i <= m; ++i) {
    h_cur[0] = 0;
    int e = kNegInf;  // E[i][j], gap along the target within row i
    for (int j = 1; j <= n; ++j) {
      e = std::max(e - kGapExtend, h_cur[j - 1] - kGapOpen);
      f_cur[j] = std::max(f_prev[j] - kGapExtend, h_prev[j] - kGapOpen);
      const int s = (q[i - 1] == t[j - 1]) ? kMatch : kMismatch;
      h_cur[j] = std::max({0, h_prev[j - 1] + s, e, f_cur[j]});
      best = std::max(best, h_cur[j]);
    }
    std::swap(h_prev, h_cur);
    std::swap(f_prev, f_cur);
  }
  return best;
}

}  // namespace

int main() {
  const int pairs = corpus::sized(kPairs, 512);  // emulated: 16 blocks of 32
  const int reps = corpus::reps(kReps);
  corpus::Rng rng(0x5317);
  std::vector<uint8_t> h_q(static_cast<size_t>(pairs) * kQueryLen);
  std::vector<uint8_t> h_t(static_cast<size_t>(pairs) * kMaxTarget, 0);
  std::vector<int> h_len(pairs);
  for (int p = 0; p < pairs; ++p) {
    uint8_t* q = &h_q[static_cast<size_t>(p) * kQueryLen];
    uint8_t* t = &h_t[static_cast<size_t>(p) * kMaxTarget];
    for (int i = 0; i < kQueryLen; ++i) q[i] = static_cast<uint8_t>(rng.below(4));
    h_len[p] = 96 + static_cast<int>(rng.below(kMaxTarget - 96 + 1));
    for (int j = 0; j < h_len[p]; ++j) t[j] = static_cast<uint8_t>(rng.below(4));
    // Half the pairs embed a mutated copy of part of the query so there are real local hits
    // with substitutions and indels, not only random-sequence scores.
    if (p % 2 == 0) {
      int pos = static_cast<int>(rng.below(h_len[p] - 48));
      for (int i = 8; i < 56 && pos < h_len[p]; ++i) {
        const uint32_t r = rng.below(20);
        if (r == 0) continue;                                       // deletion
        if (r == 1 && pos < h_len[p]) t[pos++] = static_cast<uint8_t>(rng.below(4));  // insertion
        if (pos >= h_len[p]) break;
        t[pos++] = (r == 2) ? static_cast<uint8_t>(rng.below(4)) : q[i];  // substitution or copy
      }
    }
  }

  uint8_t *d_q = nullptr, *d_t = nullptr;
  int *d_len = nullptr, *d_scores = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_q, h_q.size()));
  CORPUS_CHECK(cudaMalloc(&d_t, h_t.size()));
  CORPUS_CHECK(cudaMalloc(&d_len, pairs * sizeof(int)));
  CORPUS_CHECK(cudaMalloc(&d_scores, pairs * sizeof(int)));
  CORPUS_CHECK(cudaMemcpy(d_q, h_q.data(), h_q.size(), cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(d_t, h_t.data(), h_t.size(), cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(d_len, h_len.data(), pairs * sizeof(int), cudaMemcpyHostToDevice));

  const int threads = corpus::sized(64, 32);
  const int blocks = (pairs + threads - 1) / threads;
  sw_kernel<kQueryLen><<<blocks, threads>>>(d_q, d_t, d_len, d_scores, pairs);  // warm-up
  CORPUS_CHECK_LAUNCH();
  CORPUS_CHECK(cudaDeviceSynchronize());

  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) {
    sw_kernel<kQueryLen><<<blocks, threads>>>(d_q, d_t, d_len, d_scores, pairs);
    CORPUS_CHECK_LAUNCH();
  }
  const float gpu_ms = timer.stop();

  std::vector<int> h_scores(pairs);
  CORPUS_CHECK(cudaMemcpy(h_scores.data(), d_scores, pairs * sizeof(int), cudaMemcpyDeviceToHost));

  // Integer scores: exact match required. Error measure = largest relative score difference.
  std::vector<int> want(pairs);
  for (int p = 0; p < pairs; ++p)
    want[p] = cpu_sw(&h_q[static_cast<size_t>(p) * kQueryLen], kQueryLen,
                     &h_t[static_cast<size_t>(p) * kMaxTarget], h_len[p]);
  const double err = corpus::max_rel_err(h_scores, want, 1.0);

  CORPUS_CHECK(cudaFree(d_q));
  CORPUS_CHECK(cudaFree(d_t));
  CORPUS_CHECK(cudaFree(d_len));
  CORPUS_CHECK(cudaFree(d_scores));
  return corpus::report("smith_waterman", err == 0.0, err, gpu_ms);
}
