// Naive multi-pattern substring search in a DNA text: every text position is compared with
// each of 8 patterns (lengths 10..24, in constant memory), counting occurrences (overlaps
// included) and finding each pattern's first occurrence. Each block stages its text tile plus
// a halo in shared memory, counts per pattern in shared memory with shared atomics and adds
// them to global counters once per block. Patterns are also planted in the text so every
// count is well above zero. Counts and first positions must match the CPU exactly.
#include "../include/corpus.cuh"

namespace {

constexpr int kTextLen = 1 << 22;  // 4 Mi bases, one char per base ('A','C','G','T')
constexpr int kPatterns = 8;
constexpr int kMaxPat = 24;
constexpr int kThreads = 256;
constexpr int kReps = 60;
constexpr int kNoMatch = 0x7f7f7f7f;  // what cudaMemset(0x7f) writes; larger than any position

__constant__ char c_pat[kPatterns][kMaxPat];
__constant__ int c_pat_len[kPatterns];

__global__ void match_kernel(const char* __restrict__ text, int n, unsigned int* counts, int* first) {
  __shared__ char tile[kThreads + kMaxPat - 1];
  __shared__ unsigned int block_counts[kPatterns];
  __shared__ int block_first[kPatterns];
  const int base = blockIdx.x * blockDim.x;
  for (int i = threadIdx.x; i < blockDim.x + kMaxPat - 1; i += blockDim.x)
    tile[i] = (base + i < n) ? text[base + i] : '\0';
  if (threadIdx.x < kPatterns) {
    block_counts[threadIdx.x] = 0;
    block_first[threadIdx.x] = kNoMatch;
  }
  __syncthreads();

  const int pos = base + threadIdx.x;
  if (pos < n) {
    for (int p = 0; p < kPatterns; ++p) {
      const int len = c_pat_len[p];
      if (pos + len > n) continue;
      int c = 0;
      while (c < len && tile[threadIdx.x + c] == c_pat[p][c]) ++c;
      if (c == len) {
        atomicAdd(&block_counts[p], 1u);
        atomicMin(&block_first[p], pos);
      }
    }
  }
  __syncthreads();
  if (threadIdx.x < kPatterns && block_counts[threadIdx.x] > 0) {
    atomicAdd(&counts[threadIdx.x], block_counts[threadIdx.x]);
    atomicMin(&first[threadIdx.x], block_first[threadIdx.x]);
  }
}

}  // namespace

int main() {
  // Emulated: 64 Ki bases (256 blocks) with as many planted copies per base.
  const int text_len = corpus::sized(kTextLen, 1 << 16), plants = corpus::sized(20000, 320);
  const int reps = corpus::reps(kReps);
  const char bases[4] = {'A', 'C', 'G', 'T'};
  corpus::Rng rng(0xD7A);
  char h_pat[kPatterns][kMaxPat] = {};
  int h_len[kPatterns];
  for (int p = 0; p < kPatterns; ++p) {
    h_len[p] = 10 + 2 * p;  // 10, 12, ..., 24
    for (int c = 0; c < h_len[p]; ++c) h_pat[p][c] = bases[rng.below(4)];
  }
  // Pattern 1 starts with pattern 0, so every match of pattern 1 is also one of pattern 0.
  for (int c = 0; c < h_len[0]; ++c) h_pat[1][c] = h_pat[0][c];
  // Pattern 7 is periodic so planted copies overlap themselves.
  for (int c = 0; c < h_len[7]; ++c) h_pat[7][c] = "ACG"[c % 3];

  std::vector<char> h_text(text_len);
  for (auto& ch : h_text) ch = bases[rng.below(4)];
  for (int k = 0; k < plants; ++k) {  // plant copies at random positions (later ones may overwrite)
    const int p = static_cast<int>(rng.below(kPatterns));
    const int at = static_cast<int>(rng.below(text_len - h_len[p] + 1));
    for (int c = 0; c < h_len[p]; ++c) h_text[at + c] = h_pat[p][c];
  }

  char* d_text = nullptr;
  unsigned int* d_counts = nullptr;
  int* d_first = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_text, text_len));
  CORPUS_CHECK(cudaMalloc(&d_counts, kPatterns * sizeof(unsigned int)));
  CORPUS_CHECK(cudaMalloc(&d_first, kPatterns * sizeof(int)));
  CORPUS_CHECK(cudaMemcpy(d_text, h_text.data(), text_len, cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpyToSymbol(c_pat, h_pat, sizeof(h_pat)));
  CORPUS_CHECK(cudaMemcpyToSymbol(c_pat_len, h_len, sizeof(h_len)));

  const int blocks = (text_len + kThreads - 1) / kThreads;
  auto run = [&]() {
    CORPUS_CHECK(cudaMemset(d_counts, 0, kPatterns * sizeof(unsigned int)));
    CORPUS_CHECK(cudaMemset(d_first, 0x7f, kPatterns * sizeof(int)));
    match_kernel<<<blocks, kThreads>>>(d_text, text_len, d_counts, d_first);
    CORPUS_CHECK_LAUNCH();
  };
  run();  // warm-up
  CORPUS_CHECK(cudaDeviceSynchronize());

  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) run();
  const float gpu_ms = timer.stop();

  std::vector<unsigned int> h_counts(kPatterns);
  std::vector<int> h_first(kPatterns);
  CORPUS_CHECK(cudaMemcpy(h_counts.data(), d_counts, kPatterns * sizeof(unsigned int), cudaMemcpyDeviceToHost));
  CORPUS_CHECK(cudaMemcpy(h_first.data(), d_first, kPatterns * sizeof(int), cudaMemcpyDeviceToHost));

  // CPU reference: the same naive search, position by position.
  std::vector<unsigned int> want_counts(kPatterns, 0);
  std::vector<int> want_first(kPatterns, kNoMatch);
  for (int pos = 0; pos < text_len; ++pos) {
    for (int p = 0; p < kPatterns; ++p) {
      if (pos + h_len[p] > text_len) continue;
      int c = 0;
      while (c < h_len[p] && h_text[pos + c] == h_pat[p][c]) ++c;
      if (c == h_len[p]) {
        ++want_counts[p];
        if (want_first[p] == kNoMatch) want_first[p] = pos;
      }
    }
  }

  // Exact integer counts and positions. Error measure = largest relative count difference.
  const double err = corpus::max_rel_err(h_counts, want_counts, 1.0);
  const bool pass = err == 0.0 && h_first == want_first;
  for (int p = 0; p < kPatterns; ++p)
    std::printf("pattern %d (len %d): %u matches, first at %d\n", p, h_len[p], h_counts[p], h_first[p]);

  CORPUS_CHECK(cudaFree(d_text));
  CORPUS_CHECK(cudaFree(d_counts));
  CORPUS_CHECK(cudaFree(d_first));
  return corpus::report("pattern_match", pass, err, gpu_ms);
}
