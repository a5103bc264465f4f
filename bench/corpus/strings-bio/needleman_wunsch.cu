// Needleman-Wunsch global alignment score (linear gap) for many pairs of 256-base sequences,
// one thread block per pair, sweeping the DP matrix by anti-diagonals: thread t owns row t+1,
// three rotating diagonal buffers live in shared memory and one __syncthreads separates
// consecutive diagonals. The CPU reference fills the matrix row by row. Integer scores, exact.
#include "../include/corpus.cuh"

#include <algorithm>

namespace {

constexpr int kLen = 256;  // both sequences; also the block size (one thread per row)
constexpr int kPairs = 1024;
constexpr int kMatch = 1, kMismatch = -1, kGap = 2;
constexpr int kReps = 30;

__global__ void nw_kernel(const uint8_t* __restrict__ a, const uint8_t* __restrict__ b,
                          int* __restrict__ scores) {
  __shared__ uint8_t sa[kLen], sb[kLen];
  __shared__ int diag[3][kLen + 1];  // diag[d % 3][i] = H[i][d - i]
  const int p = blockIdx.x;
  const int t = threadIdx.x;  // blockDim.x == kLen
  sa[t] = a[static_cast<size_t>(p) * kLen + t];
  sb[t] = b[static_cast<size_t>(p) * kLen + t];
  if (t == 0) {
    diag[0][0] = 0;      // H[0][0]
    diag[1][0] = -kGap;  // H[0][1]
    diag[1][1] = -kGap;  // H[1][0]
  }
  __syncthreads();

  const int i = t + 1;
  for (int d = 2; d <= 2 * kLen; ++d) {
    int* cur = diag[d % 3];
    const int* prev1 = diag[(d - 1) % 3];
    const int* prev2 = diag[(d - 2) % 3];
    const int j = d - i;
    if (j >= 1 && j <= kLen) {
      const int s = (sa[i - 1] == sb[j - 1]) ? kMatch : kMismatch;
      const int h = max(prev2[i - 1] + s, max(prev1[i - 1], prev1[i]) - kGap);
      cur[i] = h;
    }
    if (t == 0 && d <= kLen) {  // first row and first column of the matrix
      cur[0] = -kGap * d;       // H[0][d]
      cur[d] = -kGap * d;       // H[d][0]; row d has j = 0 here, so no thread computes it
    }
    __syncthreads();
  }
  if (t == kLen - 1) scores[p] = diag[(2 * kLen) % 3][kLen];
}

int cpu_nw(const uint8_t* a, const uint8_t* b, int n) {
  std::vector<int> prev(n + 1), cur(n + 1);
  for (int j = 0; j <= n; ++j) prev[j] = -kGap * j;
  for (int i = 1; i <= n; ++i) {
    cur[0] = -kGap * i;
    for (int j = 1; j <= n; ++j) {
      const int s = (a[i - 1] == b[j - 1]) ? kMatch : kMismatch;
      cur[j] = std::max({prev[j - 1] + s, prev[j] - kGap, cur[j - 1] - kGap});
    }
    std::swap(prev, cur);
  }
  return prev[n];
}

}  // namespace

int main() {
  const int pairs = corpus::sized(kPairs, 16);
  const int reps = corpus::reps(kReps);
  corpus::Rng rng(0x4E57);
  const size_t total = static_cast<size_t>(pairs) * kLen;
  std::vector<uint8_t> h_a(total), h_b(total);
  for (int p = 0; p < pairs; ++p) {
    uint8_t* a = &h_a[static_cast<size_t>(p) * kLen];
    uint8_t* b = &h_b[static_cast<size_t>(p) * kLen];
    for (int i = 0; i < kLen; ++i) a[i] = static_cast<uint8_t>(rng.below(4));
    // b is a mutated copy of a for 3 of 4 pairs (substitutions, indels), unrelated otherwise.
    const uint32_t rate = 2 + p % 30;  // mutation probability 1/rate
    int src = 0;
    for (int j = 0; j < kLen; ++j) {
      if (p % 4 == 3 || src >= kLen) { b[j] = static_cast<uint8_t>(rng.below(4)); continue; }
      const uint32_t r = rng.below(rate * 3);
      if (r == 0) { b[j] = static_cast<uint8_t>(rng.below(4)); ++src; }        // substitution
      else if (r == 1) { b[j] = static_cast<uint8_t>(rng.below(4)); }          // insertion
      else if (r == 2) { src += 2; b[j] = src - 1 < kLen ? a[src - 1] : 0; }   // deletion
      else { b[j] = a[src++]; }
    }
  }

  uint8_t *d_a = nullptr, *d_b = nullptr;
  int* d_scores = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_a, total));
  CORPUS_CHECK(cudaMalloc(&d_b, total));
  CORPUS_CHECK(cudaMalloc(&d_scores, pairs * sizeof(int)));
  CORPUS_CHECK(cudaMemcpy(d_a, h_a.data(), total, cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(d_b, h_b.data(), total, cudaMemcpyHostToDevice));

  nw_kernel<<<pairs, kLen>>>(d_a, d_b, d_scores);  // warm-up
  CORPUS_CHECK_LAUNCH();
  CORPUS_CHECK(cudaDeviceSynchronize());

  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) {
    nw_kernel<<<pairs, kLen>>>(d_a, d_b, d_scores);
    CORPUS_CHECK_LAUNCH();
  }
  const float gpu_ms = timer.stop();

  std::vector<int> h_scores(pairs), want(pairs);
  CORPUS_CHECK(cudaMemcpy(h_scores.data(), d_scores, pairs * sizeof(int), cudaMemcpyDeviceToHost));
  for (int p = 0; p < pairs; ++p)
    want[p] = cpu_nw(&h_a[static_cast<size_t>(p) * kLen], &h_b[static_cast<size_t>(p) * kLen], kLen);
  // Integer scores: exact. Floor 1 so a zero score is compared absolutely.
  const double err = corpus::max_rel_err(h_scores, want, 1.0);

  CORPUS_CHECK(cudaFree(d_a));
  CORPUS_CHECK(cudaFree(d_b));
  CORPUS_CHECK(cudaFree(d_scores));
  return corpus::report("needleman_wunsch", err == 0.0, err, gpu_ms);
}
