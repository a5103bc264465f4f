// k-mer counting (k = 21, 2 bits per base packed into a 64-bit key) with a GPU open-addressing
// hash table: linear probing, keys claimed with atomicCAS, counts bumped with atomicAdd. Each
// block stages its text tile plus the (k-1)-base halo in shared memory. The genome mixes random
// sequence with mutated copies of a few repeats, so many k-mers occur many times. The CPU
// reference sorts all k-mers and counts runs; the GPU table, compacted and sorted, must give the
// same (k-mer, count) list exactly.
#include "../include/corpus.cuh"

#include <algorithm>
#include <utility>

namespace {

constexpr int kK = 21;
constexpr int kTextLen = 1 << 21;       // 2 Mi bases
constexpr int kTableBits = 22;          // 4 Mi slots, load factor <= 0.5
constexpr uint64_t kEmpty = ~0ull;      // no 2k-bit key has all 64 bits set
constexpr int kThreads = 256;
constexpr int kReps = 30;

__device__ __forceinline__ uint64_t hash64(uint64_t x) {  // murmur3 fmix64
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return x;
}

__global__ void count_kernel(const uint8_t* __restrict__ text, int n, unsigned long long* keys,
                             unsigned int* counts, uint64_t mask) {
  __shared__ uint8_t tile[kThreads + kK - 1];
  const int base = blockIdx.x * blockDim.x;
  for (int i = threadIdx.x; i < blockDim.x + kK - 1; i += blockDim.x)
    tile[i] = (base + i < n) ? text[base + i] : 0;
  __syncthreads();

  const int pos = base + threadIdx.x;
  if (pos > n - kK) return;
  uint64_t key = 0;
#pragma unroll
  for (int c = 0; c < kK; ++c) key = (key << 2) | tile[threadIdx.x + c];

  uint64_t slot = hash64(key) & mask;
  while (true) {
    const unsigned long long prev = atomicCAS(&keys[slot], static_cast<unsigned long long>(kEmpty),
                                              static_cast<unsigned long long>(key));
    if (prev == kEmpty || prev == key) {
      atomicAdd(&counts[slot], 1u);
      return;
    }
    slot = (slot + 1) & mask;
  }
}

}  // namespace

int main() {
  // Emulated: 64 Ki bases (256 blocks) in 128 Ki slots, the same load factor <= 0.5.
  const int text_len = corpus::sized(kTextLen, 1 << 16), table_bits = corpus::sized(kTableBits, 17);
  const int reps = corpus::reps(kReps);
  // Genome: blocks of 300 bases, each either random or a 1%-mutated copy of one of 16 repeats.
  corpus::Rng rng(0x6B3E5);
  std::vector<std::vector<uint8_t>> repeats(16, std::vector<uint8_t>(300));
  for (auto& r : repeats)
    for (auto& b : r) b = static_cast<uint8_t>(rng.below(4));
  std::vector<uint8_t> h_text(text_len);
  for (int pos = 0; pos < text_len; pos += 300) {
    const bool rep = rng.below(2) == 0;
    const auto& r = repeats[rng.below(16)];
    for (int c = 0; c < 300 && pos + c < text_len; ++c)
      h_text[pos + c] = (rep && rng.below(100) != 0) ? r[c] : static_cast<uint8_t>(rng.below(4));
  }

  const size_t slots = size_t(1) << table_bits;
  unsigned long long* d_keys = nullptr;
  unsigned int* d_counts = nullptr;
  uint8_t* d_text = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_text, text_len));
  CORPUS_CHECK(cudaMalloc(&d_keys, slots * sizeof(unsigned long long)));
  CORPUS_CHECK(cudaMalloc(&d_counts, slots * sizeof(unsigned int)));
  CORPUS_CHECK(cudaMemcpy(d_text, h_text.data(), text_len, cudaMemcpyHostToDevice));

  const int blocks = (text_len + kThreads - 1) / kThreads;
  auto run = [&]() {  // clearing the table is part of each count
    CORPUS_CHECK(cudaMemset(d_keys, 0xff, slots * sizeof(unsigned long long)));
    CORPUS_CHECK(cudaMemset(d_counts, 0, slots * sizeof(unsigned int)));
    count_kernel<<<blocks, kThreads>>>(d_text, text_len, d_keys, d_counts, slots - 1);
    CORPUS_CHECK_LAUNCH();
  };
  run();  // warm-up
  CORPUS_CHECK(cudaDeviceSynchronize());

  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) run();
  const float gpu_ms = timer.stop();

  std::vector<unsigned long long> h_keys(slots);
  std::vector<unsigned int> h_counts(slots);
  CORPUS_CHECK(cudaMemcpy(h_keys.data(), d_keys, slots * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
  CORPUS_CHECK(cudaMemcpy(h_counts.data(), d_counts, slots * sizeof(unsigned int), cudaMemcpyDeviceToHost));

  std::vector<std::pair<uint64_t, uint32_t>> got;
  for (size_t s = 0; s < slots; ++s)
    if (h_keys[s] != kEmpty) got.emplace_back(h_keys[s], h_counts[s]);
  std::sort(got.begin(), got.end());

  // CPU reference: rolling 2k-bit key, sort, run-length count.
  std::vector<uint64_t> all;
  all.reserve(text_len);
  const uint64_t kmask = (uint64_t(1) << (2 * kK)) - 1;
  uint64_t key = 0;
  for (int i = 0; i < text_len; ++i) {
    key = ((key << 2) | h_text[i]) & kmask;
    if (i >= kK - 1) all.push_back(key);
  }
  std::sort(all.begin(), all.end());
  std::vector<std::pair<uint64_t, uint32_t>> want;
  uint32_t max_count = 0;
  for (size_t i = 0; i < all.size();) {
    size_t j = i;
    while (j < all.size() && all[j] == all[i]) ++j;
    want.emplace_back(all[i], static_cast<uint32_t>(j - i));
    max_count = std::max(max_count, static_cast<uint32_t>(j - i));
    i = j;
  }

  // Exact: every distinct k-mer and its count must match. Error measure = fraction of entries
  // that differ (1 if even the number of distinct k-mers differs).
  double err = 0.0;
  if (got.size() != want.size()) {
    err = 1.0;
  } else {
    size_t diff = 0;
    for (size_t i = 0; i < want.size(); ++i) diff += (got[i] != want[i]);
    err = static_cast<double>(diff) / want.size();
  }
  std::printf("kmer_count: %zu k-mers, %zu distinct, max multiplicity %u\n", all.size(), want.size(), max_count);

  CORPUS_CHECK(cudaFree(d_text));
  CORPUS_CHECK(cudaFree(d_keys));
  CORPUS_CHECK(cudaFree(d_counts));
  return corpus::report("kmer_count", err == 0.0, err, gpu_ms);
}
