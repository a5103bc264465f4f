// LSD radix sort of 2^20 uint32 keys, 8-bit digits (4 passes). Each pass:
//   1. radix_histogram: every 1024-key tile counts its digits in shared memory (atomics) and
//      writes them digit-major (hist[digit * tiles + tile]);
//   2. scan_histogram: one block scans that array exclusively, which gives every
//      (digit, tile) its first output position, stable across tiles;
//   3. radix_scatter: every tile sorts itself stably by the digit with eight 1-bit splits
//      (block-wide scans in shared memory); a key's rank within its digit is then its
//      distance from the first key of that digit, and it is written to offset + rank.
// Checked exactly against std::sort.
#include "../include/corpus.cuh"

#include <algorithm>

constexpr unsigned FULL_MASK = 0xffffffffu;
constexpr int RADIX_BITS = 8;
constexpr int RADIX = 1 << RADIX_BITS;
constexpr int TILE = 1024;  // keys per tile, one per thread
constexpr int SCAN_THREADS = 1024;

// Exclusive scan of one value per thread over the block; *total gets the block's sum.
// warp_sums needs one slot per warp; requires blockDim.x / warpSize <= warpSize.
__device__ unsigned block_exclusive_scan(unsigned v, unsigned* warp_sums, unsigned* total) {
  const int lane = threadIdx.x % warpSize;
  const int wid = threadIdx.x / warpSize;
  const int nwarps = blockDim.x / warpSize;
  unsigned inc = v;
  for (int offset = 1; offset < warpSize; offset <<= 1) {
    const unsigned t = __shfl_up_sync(FULL_MASK, inc, offset);
    if (lane >= offset) inc += t;
  }
  if (lane == warpSize - 1) warp_sums[wid] = inc;
  __syncthreads();
  if (wid == 0) {
    unsigned s = lane < nwarps ? warp_sums[lane] : 0u;
    for (int offset = 1; offset < warpSize; offset <<= 1) {
      const unsigned t = __shfl_up_sync(FULL_MASK, s, offset);
      if (lane >= offset) s += t;
    }
    if (lane < nwarps) warp_sums[lane] = s;
  }
  __syncthreads();
  *total = warp_sums[nwarps - 1];
  const unsigned prefix = wid == 0 ? 0u : warp_sums[wid - 1];
  __syncthreads();  // warp_sums is reused by the next call
  return prefix + inc - v;
}

__global__ void __launch_bounds__(TILE)
radix_histogram(const unsigned* __restrict__ keys, unsigned* __restrict__ hist, int n, int shift, int tiles) {
  __shared__ unsigned counts[RADIX];
  for (int d = threadIdx.x; d < RADIX; d += blockDim.x) counts[d] = 0;
  __syncthreads();
  const int i = blockIdx.x * TILE + threadIdx.x;
  if (i < n) atomicAdd(&counts[(keys[i] >> shift) & (RADIX - 1)], 1u);
  __syncthreads();
  for (int d = threadIdx.x; d < RADIX; d += blockDim.x) hist[d * tiles + blockIdx.x] = counts[d];
}

// In-place exclusive scan of m counts by a single block: each thread owns a contiguous chunk.
__global__ void __launch_bounds__(SCAN_THREADS) scan_histogram(unsigned* __restrict__ hist, int m) {
  __shared__ unsigned warp_sums[64];
  const int chunk = (m + blockDim.x - 1) / blockDim.x;
  const int begin = min(m, (int)threadIdx.x * chunk);
  const int end = min(m, begin + chunk);
  unsigned sum = 0;
  for (int i = begin; i < end; ++i) sum += hist[i];
  unsigned total;
  unsigned running = block_exclusive_scan(sum, warp_sums, &total);
  for (int i = begin; i < end; ++i) {
    const unsigned c = hist[i];
    hist[i] = running;
    running += c;
  }
}

__global__ void __launch_bounds__(TILE)
radix_scatter(const unsigned* __restrict__ in, unsigned* __restrict__ out, const unsigned* __restrict__ offsets,
              int n, int shift, int tiles) {
  __shared__ unsigned s_keys[TILE];
  __shared__ unsigned warp_sums[64];
  __shared__ unsigned digit_start[RADIX];
  const unsigned tid = threadIdx.x;
  const int base = blockIdx.x * TILE;
  const int count = min(TILE, n - base);
  // Padding keys have every bit set: they stay behind all real keys through the splits.
  unsigned key = (int)tid < count ? in[base + tid] : 0xffffffffu;

  for (int b = 0; b < RADIX_BITS; ++b) {  // stable split on each bit of the digit
    const unsigned bit = (key >> (shift + b)) & 1u;
    unsigned zeros;
    const unsigned zeros_before = block_exclusive_scan(1u - bit, warp_sums, &zeros);
    const unsigned dst = bit ? zeros + (tid - zeros_before) : zeros_before;
    s_keys[dst] = key;
    __syncthreads();
    key = s_keys[tid];
    __syncthreads();
  }

  // The tile is now ordered by digit; find where each digit's run starts.
  const unsigned digit = (key >> shift) & (RADIX - 1);
  if (tid == 0 || ((s_keys[tid - 1] >> shift) & (RADIX - 1)) != digit) digit_start[digit] = tid;
  __syncthreads();
  if ((int)tid < count) out[offsets[digit * tiles + blockIdx.x] + (tid - digit_start[digit])] = key;
}

// Sorts d_keys (n keys) using d_tmp as the ping-pong buffer; the result ends in d_keys.
static void radix_sort(unsigned* d_keys, unsigned* d_tmp, unsigned* d_hist, int n) {
  const int tiles = (n + TILE - 1) / TILE;
  unsigned* src = d_keys;
  unsigned* dst = d_tmp;
  for (int shift = 0; shift < 32; shift += RADIX_BITS) {
    radix_histogram<<<tiles, TILE>>>(src, d_hist, n, shift, tiles);
    CORPUS_CHECK_LAUNCH();
    scan_histogram<<<1, SCAN_THREADS>>>(d_hist, RADIX * tiles);
    CORPUS_CHECK_LAUNCH();
    radix_scatter<<<tiles, TILE>>>(src, dst, d_hist, n, shift, tiles);
    CORPUS_CHECK_LAUNCH();
    std::swap(src, dst);
  }
  // 4 passes: the keys are back in d_keys.
}

int main() {
  const int n = corpus::sized(1 << 20, 1 << 15);  // emulated: 32 tiles
  const int reps = corpus::reps(10);  // each sort is 12 launches: ~0.15 ms on an H200
  const int tiles = (n + TILE - 1) / TILE;

  corpus::Rng rng(0x7ad1ull);
  std::vector<unsigned> h_in(n), h_out(n);
  for (auto& v : h_in) v = rng.next_u32();
  for (int i = 0; i < n; i += 17) h_in[i] &= 0x00ff00ffu;  // skewed digits and duplicates too

  unsigned *d_in = nullptr, *d_keys = nullptr, *d_tmp = nullptr, *d_hist = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_in, n * sizeof(unsigned)));
  CORPUS_CHECK(cudaMalloc(&d_keys, n * sizeof(unsigned)));
  CORPUS_CHECK(cudaMalloc(&d_tmp, n * sizeof(unsigned)));
  CORPUS_CHECK(cudaMalloc(&d_hist, (size_t)RADIX * tiles * sizeof(unsigned)));
  CORPUS_CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));

  CORPUS_CHECK(cudaMemcpy(d_keys, d_in, n * sizeof(unsigned), cudaMemcpyDeviceToDevice));
  radix_sort(d_keys, d_tmp, d_hist, n);  // warm-up
  CORPUS_CHECK(cudaDeviceSynchronize());

  // Every repetition sorts the unsorted input again (the copy is included in the time).
  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) {
    CORPUS_CHECK(cudaMemcpyAsync(d_keys, d_in, n * sizeof(unsigned), cudaMemcpyDeviceToDevice));
    radix_sort(d_keys, d_tmp, d_hist, n);
  }
  const float gpu_ms = timer.stop();
  CORPUS_CHECK(cudaMemcpy(h_out.data(), d_keys, n * sizeof(unsigned), cudaMemcpyDeviceToHost));

  // CPU reference: std::sort. Keys only move, so the output must match exactly.
  std::vector<unsigned> ref(h_in);
  std::sort(ref.begin(), ref.end());
  size_t mismatches = 0;
  for (int i = 0; i < n; ++i) mismatches += h_out[i] != ref[i];
  const bool pass = mismatches == 0;
  const double err = pass ? 0.0 : (double)mismatches / n;  // fraction of misplaced keys
  if (!pass) std::fprintf(stderr, "radix_sort: %zu keys out of place\n", mismatches);

  CORPUS_CHECK(cudaFree(d_in));
  CORPUS_CHECK(cudaFree(d_keys));
  CORPUS_CHECK(cudaFree(d_tmp));
  CORPUS_CHECK(cudaFree(d_hist));
  return corpus::report("radix_sort", pass, err, gpu_ms);
}
