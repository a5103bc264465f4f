// Stable stream compaction of 16 Mi ints (keep x > threshold) with warp votes, the way CUDA
// code does it with 32-bit lane masks: __ballot_sync gives the warp's predicate mask,
// __popc(mask) the warp's count and __popc(mask & lanemask_lt) each lane's rank. Three
// launches: per-block counts, one-block exclusive scan of the counts, ordered scatter. The
// output must equal std::copy_if exactly (same elements, same order).
// Note: lane = tid & 31 and 32-bit masks assume 32-lane warps (on 64-wide wavefronts the
// ballot is 64 bits wide); this is the common CUDA idiom the translator must flag.
#include "../include/corpus.cuh"

#include <algorithm>

namespace {

constexpr int kN = (1 << 24) - 1000;  // not a multiple of the tile: exercises the tail
constexpr int kThreads = 256;
constexpr int kItems = 8;             // per thread per tile
constexpr int kTileSize = kThreads * kItems;
constexpr int kThreshold = 600;       // keeps ~40% of values in [0, 1000)
constexpr int kScanThreads = 1024;
constexpr int kReps = 20;

__global__ void count_kernel(const int* __restrict__ in, int n, int threshold, int* __restrict__ block_counts) {
  __shared__ int total;
  if (threadIdx.x == 0) total = 0;
  __syncthreads();
  const int lane = threadIdx.x & 31;
  int warp_count = 0;
  for (int it = 0; it < kItems; ++it) {
    const int i = blockIdx.x * kTileSize + it * blockDim.x + threadIdx.x;
    const bool keep = i < n && in[i] > threshold;
    warp_count += __popc(__ballot_sync(0xffffffff, keep));
  }
  if (lane == 0) atomicAdd(&total, warp_count);
  __syncthreads();
  if (threadIdx.x == 0) block_counts[blockIdx.x] = total;
}

// Exclusive scan of up to kScanThreads * per-thread counts in one block (Hillis-Steele over
// per-thread sums in shared memory). offsets[nblocks] receives the grand total.
__global__ void scan_kernel(const int* __restrict__ counts, int nblocks, int* __restrict__ offsets) {
  __shared__ int sums[kScanThreads];
  const int per = (nblocks + blockDim.x - 1) / blockDim.x;
  const int begin = threadIdx.x * per;
  int local = 0;
  for (int i = begin; i < begin + per && i < nblocks; ++i) local += counts[i];
  sums[threadIdx.x] = local;
  __syncthreads();
  for (int step = 1; step < blockDim.x; step <<= 1) {
    const int add = threadIdx.x >= step ? sums[threadIdx.x - step] : 0;
    __syncthreads();
    sums[threadIdx.x] += add;
    __syncthreads();
  }
  int running = sums[threadIdx.x] - local;  // exclusive prefix of this thread's chunk
  for (int i = begin; i < begin + per && i < nblocks; ++i) {
    offsets[i] = running;
    running += counts[i];
  }
  if (threadIdx.x == blockDim.x - 1) offsets[nblocks] = sums[threadIdx.x];
}

__global__ void scatter_kernel(const int* __restrict__ in, int n, int threshold,
                               const int* __restrict__ block_offsets, int* __restrict__ out) {
  __shared__ int warp_offsets[kThreads / 32 + 1];
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const unsigned lanemask_lt = (1u << lane) - 1u;
  int base = block_offsets[blockIdx.x];
  for (int it = 0; it < kItems; ++it) {
    const int i = blockIdx.x * kTileSize + it * blockDim.x + threadIdx.x;
    const int v = i < n ? in[i] : 0;
    const bool keep = i < n && v > threshold;
    const unsigned mask = __ballot_sync(0xffffffff, keep);
    if (lane == 0) warp_offsets[warp] = __popc(mask);
    __syncthreads();
    if (threadIdx.x == 0) {  // exclusive scan over the block's warps
      int run = 0;
      for (int w = 0; w < kThreads / 32; ++w) {
        const int c = warp_offsets[w];
        warp_offsets[w] = run;
        run += c;
      }
      warp_offsets[kThreads / 32] = run;
    }
    __syncthreads();
    if (keep) out[base + warp_offsets[warp] + __popc(mask & lanemask_lt)] = v;
    base += warp_offsets[kThreads / 32];
    __syncthreads();  // warp_offsets is rewritten in the next round
  }
}

}  // namespace

int main() {
  const int n = corpus::sized(kN, (1 << 18) - 1000);  // emulated: 128 tiles, ragged tail
  const int reps = corpus::reps(kReps);
  std::vector<int> h_in(n);
  corpus::Rng rng(0xBA110);
  for (auto& v : h_in) v = static_cast<int>(rng.below(1000));

  const int nblocks = (n + kTileSize - 1) / kTileSize;
  int *d_in, *d_out, *d_counts, *d_offsets;
  CORPUS_CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CORPUS_CHECK(cudaMalloc(&d_out, n * sizeof(int)));
  CORPUS_CHECK(cudaMalloc(&d_counts, nblocks * sizeof(int)));
  CORPUS_CHECK(cudaMalloc(&d_offsets, (nblocks + 1) * sizeof(int)));
  CORPUS_CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemset(d_out, 0xff, n * sizeof(int)));

  auto run = [&]() {
    count_kernel<<<nblocks, kThreads>>>(d_in, n, kThreshold, d_counts);
    CORPUS_CHECK_LAUNCH();
    scan_kernel<<<1, kScanThreads>>>(d_counts, nblocks, d_offsets);
    CORPUS_CHECK_LAUNCH();
    scatter_kernel<<<nblocks, kThreads>>>(d_in, n, kThreshold, d_offsets, d_out);
    CORPUS_CHECK_LAUNCH();
  };
  run();  // warm-up
  CORPUS_CHECK(cudaDeviceSynchronize());

  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) run();
  const float gpu_ms = timer.stop();

  int total = 0;
  CORPUS_CHECK(cudaMemcpy(&total, d_offsets + nblocks, sizeof(int), cudaMemcpyDeviceToHost));
  std::vector<int> want;
  want.reserve(n);
  std::copy_if(h_in.begin(), h_in.end(), std::back_inserter(want), [](int v) { return v > kThreshold; });
  std::vector<int> got(std::min(std::max(total, 0), n));
  CORPUS_CHECK(cudaMemcpy(got.data(), d_out, got.size() * sizeof(int), cudaMemcpyDeviceToHost));

  // Exact: compaction moves integers. Error measure = fraction of wrong output slots
  // (1 if the count differs).
  double err = 1.0;
  if (got.size() == want.size()) {
    size_t wrong = 0;
    for (size_t i = 0; i < want.size(); ++i) wrong += got[i] != want[i];
    err = want.empty() ? 0.0 : static_cast<double>(wrong) / want.size();
  }
  std::printf("ballot_compact: kept %d of %d\n", total, n);

  CORPUS_CHECK(cudaFree(d_in));
  CORPUS_CHECK(cudaFree(d_out));
  CORPUS_CHECK(cudaFree(d_counts));
  CORPUS_CHECK(cudaFree(d_offsets));
  return corpus::report("ballot_compact", err == 0.0, err, gpu_ms);
}
