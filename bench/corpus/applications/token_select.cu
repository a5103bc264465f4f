// Visual-token selection (token pruning for vision-language models). Each of 16 images has
// N = 64 partitions x 576 tokens with attention scores. Per image:
//  1. partition mass S_p = sum of its scores (block reduction);
//  2. budgets: B = 4096 tokens split in proportion to S_p by largest-remainder rounding:
//     floor(B S_p / S) each, and the B - sum(floors) leftover tokens go to the partitions with
//     the largest remainders (B S_p mod S), ties to the lower partition index;
//  3. top-k inside each partition: a token is kept if fewer than budget_p tokens beat it
//     (higher score, or equal score and lower index);
//  4. output: the kept token indices in ascending order (partition offsets from an exclusive
//     scan of the budgets, then the in-partition order).
// Scores are multiples of 1/4096 in [0, 1), so partition sums are exact in float (< 2^22 units)
// and the integer budget arithmetic is exact: the result must match the CPU exactly.
#include "../include/corpus.cuh"

#include <algorithm>

constexpr int kParts = 64, kTok = 576, kBudget = 4096;
constexpr int kPerImage = kParts * kTok;
constexpr int kThreads = 256;
constexpr float kUnit = 4096.0f;

// 1. One block per (image, partition): sum of the scores in integer units.
__global__ void partition_mass(const float* __restrict__ scores, unsigned int* __restrict__ mass) {
  __shared__ unsigned int warp_sums[64];
  const float* s = scores + static_cast<size_t>(blockIdx.x) * kTok;
  unsigned int acc = 0;
  for (int t = threadIdx.x; t < kTok; t += blockDim.x) acc += static_cast<unsigned int>(s[t] * kUnit);
  for (int off = warpSize / 2; off > 0; off >>= 1) acc += __shfl_down_sync(0xffffffff, acc, off);
  const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  if (lane == 0) warp_sums[warp] = acc;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned int total = 0;
    for (int w = 0; w < (blockDim.x + warpSize - 1) / warpSize; ++w) total += warp_sums[w];
    mass[blockIdx.x] = total;
  }
}

// 2. One block of kParts threads per image: largest-remainder budgets and their exclusive scan.
__global__ void allocate_budgets(const unsigned int* __restrict__ mass, int* __restrict__ budget,
                                 int* __restrict__ offset) {
  __shared__ unsigned long long rem[kParts];
  __shared__ int base[kParts];
  const int p = threadIdx.x;
  const unsigned int* m = mass + blockIdx.x * kParts;
  unsigned long long total = 0;
  for (int q = 0; q < kParts; ++q) total += m[q];  // every thread: same exact sum
  const unsigned long long num = static_cast<unsigned long long>(kBudget) * m[p];
  base[p] = static_cast<int>(num / total);
  rem[p] = num % total;
  __syncthreads();
  int assigned = 0, rank = 0;
  for (int q = 0; q < kParts; ++q) {
    assigned += base[q];
    if (rem[q] > rem[p] || (rem[q] == rem[p] && q < p)) ++rank;
  }
  const int b = min(base[p] + (rank < kBudget - assigned ? 1 : 0), kTok);
  __syncthreads();
  base[p] = b;
  __syncthreads();
  int off = 0;
  for (int q = 0; q < p; ++q) off += base[q];
  budget[blockIdx.x * kParts + p] = b;
  offset[blockIdx.x * kParts + p] = blockIdx.x * kBudget + off;
}

// 3+4. One block per (image, partition): rank every token, keep the top budget_p, write the
// kept indices in ascending order.
__global__ void select_tokens(const float* __restrict__ scores, const int* __restrict__ budget,
                              const int* __restrict__ offset, int* __restrict__ selected) {
  __shared__ float s[kTok];
  __shared__ int keep[kTok];
  const int part = blockIdx.x;  // image * kParts + partition
  const float* src = scores + static_cast<size_t>(part) * kTok;
  for (int t = threadIdx.x; t < kTok; t += blockDim.x) s[t] = src[t];
  __syncthreads();
  const int k = budget[part];
  for (int t = threadIdx.x; t < kTok; t += blockDim.x) {
    const float v = s[t];
    int rank = 0;
    for (int u = 0; u < kTok; ++u) rank += (s[u] > v || (s[u] == v && u < t)) ? 1 : 0;
    keep[t] = rank < k;
  }
  __syncthreads();
  const int image_base = (part % kParts) * kTok;  // token index within the image
  for (int t = threadIdx.x; t < kTok; t += blockDim.x) {
    if (!keep[t]) continue;
    int pos = 0;
    for (int u = 0; u < t; ++u) pos += keep[u];
    selected[offset[part] + pos] = image_base + t;
  }
}

int main() {
  const int images = corpus::sized(16, 2);  // emulated: 128 partition blocks
  const int parts_total = images * kParts;
  const size_t n = static_cast<size_t>(images) * kPerImage;
  corpus::Rng rng(0x70CEu);
  std::vector<float> h_scores(n);
  for (int p = 0; p < parts_total; ++p) {
    const float level = rng.uniform(0.25f, 1.0f);  // some partitions matter more
    for (int t = 0; t < kTok; ++t)
      h_scores[static_cast<size_t>(p) * kTok + t] = static_cast<float>(static_cast<int>(level * rng.uniform() * kUnit)) / kUnit;
  }

  float* d_scores;
  unsigned int* d_mass;
  int *d_budget, *d_offset, *d_sel;
  CORPUS_CHECK(cudaMalloc(&d_scores, n * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&d_mass, parts_total * sizeof(unsigned int)));
  CORPUS_CHECK(cudaMalloc(&d_budget, parts_total * sizeof(int)));
  CORPUS_CHECK(cudaMalloc(&d_offset, parts_total * sizeof(int)));
  CORPUS_CHECK(cudaMalloc(&d_sel, static_cast<size_t>(images) * kBudget * sizeof(int)));
  CORPUS_CHECK(cudaMemcpy(d_scores, h_scores.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  auto run = [&]() {
    partition_mass<<<parts_total, kThreads>>>(d_scores, d_mass);
    CORPUS_CHECK_LAUNCH();
    allocate_budgets<<<images, kParts>>>(d_mass, d_budget, d_offset);
    CORPUS_CHECK_LAUNCH();
    select_tokens<<<parts_total, kThreads>>>(d_scores, d_budget, d_offset, d_sel);
    CORPUS_CHECK_LAUNCH();
  };
  CORPUS_CHECK(cudaMemset(d_sel, 0xff, static_cast<size_t>(images) * kBudget * sizeof(int)));
  run();  // warm-up
  CORPUS_CHECK(cudaDeviceSynchronize());
  const int reps = corpus::reps(20);
  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) run();
  const float gpu_ms = timer.stop();
  std::vector<int> h_sel(static_cast<size_t>(images) * kBudget);
  CORPUS_CHECK(cudaMemcpy(h_sel.data(), d_sel, h_sel.size() * sizeof(int), cudaMemcpyDeviceToHost));

  // CPU reference: same integer arithmetic; top-k by sorting (score desc, then index asc).
  std::vector<int> ref(static_cast<size_t>(images) * kBudget, -1);
  bool budgets_full = true;
  for (int img = 0; img < images; ++img) {
    unsigned long long m[kParts], total = 0, rem[kParts];
    int b[kParts], assigned = 0;
    for (int p = 0; p < kParts; ++p) {
      m[p] = 0;
      const float* s = &h_scores[(static_cast<size_t>(img) * kParts + p) * kTok];
      for (int t = 0; t < kTok; ++t) m[p] += static_cast<unsigned int>(s[t] * kUnit);
      total += m[p];
    }
    for (int p = 0; p < kParts; ++p) {
      b[p] = static_cast<int>(kBudget * m[p] / total);
      rem[p] = kBudget * m[p] % total;
      assigned += b[p];
    }
    std::vector<int> order(kParts);
    for (int p = 0; p < kParts; ++p) order[p] = p;
    std::sort(order.begin(), order.end(), [&](int a, int c) { return rem[a] > rem[c] || (rem[a] == rem[c] && a < c); });
    for (int r = 0; r < kBudget - assigned; ++r) ++b[order[r]];
    int out = img * kBudget, sum = 0;
    for (int p = 0; p < kParts; ++p) {
      b[p] = std::min(b[p], kTok);
      sum += b[p];
      const float* s = &h_scores[(static_cast<size_t>(img) * kParts + p) * kTok];
      std::vector<int> idx(kTok);
      for (int t = 0; t < kTok; ++t) idx[t] = t;
      std::sort(idx.begin(), idx.end(), [&](int a, int c) { return s[a] > s[c] || (s[a] == s[c] && a < c); });
      std::sort(idx.begin(), idx.begin() + b[p]);
      for (int r = 0; r < b[p]; ++r) ref[out++] = p * kTok + idx[r];
    }
    if (sum != kBudget) budgets_full = false;  // the cap never binds for these inputs
  }

  // Tolerance: exact (integer budgets, exact score sums, deterministic tie-breaking).
  size_t bad = 0;
  for (size_t i = 0; i < ref.size(); ++i) bad += h_sel[i] != ref[i];
  const bool pass = bad == 0 && budgets_full;
  const double err = static_cast<double>(bad) / static_cast<double>(ref.size());

  CORPUS_CHECK(cudaFree(d_scores));
  CORPUS_CHECK(cudaFree(d_mass));
  CORPUS_CHECK(cudaFree(d_budget));
  CORPUS_CHECK(cudaFree(d_offset));
  CORPUS_CHECK(cudaFree(d_sel));
  return corpus::report("token_select", pass, err, gpu_ms);
}
