// Bitonic sort of 2^20 uint32 keys, ascending, in the shared + global arrangement of the
// classic sortingNetworks sample:
//   - bitonic_sort_shared: every block sorts its 2048-key chunk entirely in shared memory,
//     alternating direction between chunks, so neighbouring chunks form bitonic sequences;
//   - for each larger stage size k: bitonic_merge_global does the compare-exchange steps
//     whose stride j >= 2048 straight in global memory (one thread per pair), and
//     bitonic_merge_shared finishes the steps j = 1024 .. 1 of that stage in shared memory.
// Each thread handles one compare-exchange pair per step. The result is checked exactly
// against std::sort.
#include "../include/corpus.cuh"

#include <algorithm>

constexpr int SHARED_KEYS = 2048;              // keys per block in the shared kernels
constexpr int SHARED_THREADS = SHARED_KEYS / 2;  // one pair per thread

// Orders a and b: ascending if up, descending otherwise.
__device__ __forceinline__ void compare_exchange(unsigned& a, unsigned& b, bool up) {
  if ((a > b) == up) {
    const unsigned t = a;
    a = b;
    b = t;
  }
}

// Position of the lower element of pair t for stride j: t with a zero bit inserted at j.
__device__ __forceinline__ unsigned pair_low(unsigned t, unsigned j) { return 2 * j * (t / j) + (t % j); }

__global__ void __launch_bounds__(SHARED_THREADS) bitonic_sort_shared(unsigned* __restrict__ keys) {
  __shared__ unsigned s[SHARED_KEYS];
  const unsigned base = blockIdx.x * SHARED_KEYS;
  s[threadIdx.x] = keys[base + threadIdx.x];
  s[threadIdx.x + SHARED_THREADS] = keys[base + threadIdx.x + SHARED_THREADS];

  for (unsigned k = 2; k <= SHARED_KEYS; k <<= 1) {
    for (unsigned j = k / 2; j > 0; j >>= 1) {
      __syncthreads();
      const unsigned lo = pair_low(threadIdx.x, j);
      // Direction from the global position: for k == SHARED_KEYS it alternates per block.
      const bool up = ((base + lo) & k) == 0;
      compare_exchange(s[lo], s[lo + j], up);
    }
  }
  __syncthreads();
  keys[base + threadIdx.x] = s[threadIdx.x];
  keys[base + threadIdx.x + SHARED_THREADS] = s[threadIdx.x + SHARED_THREADS];
}

// One step (stage size k, stride j >= SHARED_KEYS) over the whole array.
__global__ void bitonic_merge_global(unsigned* __restrict__ keys, unsigned n, unsigned k, unsigned j) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n / 2) return;
  const unsigned lo = pair_low(t, j);
  const bool up = (lo & k) == 0;
  unsigned a = keys[lo], b = keys[lo + j];
  compare_exchange(a, b, up);
  keys[lo] = a;
  keys[lo + j] = b;
}

// The steps j = SHARED_KEYS / 2 .. 1 of stage k, for one 2048-key chunk per block.
__global__ void __launch_bounds__(SHARED_THREADS)
bitonic_merge_shared(unsigned* __restrict__ keys, unsigned k) {
  __shared__ unsigned s[SHARED_KEYS];
  const unsigned base = blockIdx.x * SHARED_KEYS;
  s[threadIdx.x] = keys[base + threadIdx.x];
  s[threadIdx.x + SHARED_THREADS] = keys[base + threadIdx.x + SHARED_THREADS];
  const bool up = (base & k) == 0;  // k > SHARED_KEYS: the same for the whole chunk
  for (unsigned j = SHARED_KEYS / 2; j > 0; j >>= 1) {
    __syncthreads();
    const unsigned lo = pair_low(threadIdx.x, j);
    compare_exchange(s[lo], s[lo + j], up);
  }
  __syncthreads();
  keys[base + threadIdx.x] = s[threadIdx.x];
  keys[base + threadIdx.x + SHARED_THREADS] = s[threadIdx.x + SHARED_THREADS];
}

// Sorts n keys in place; n must be a power of two and a multiple of SHARED_KEYS.
static void bitonic_sort(unsigned* d_keys, unsigned n) {
  const unsigned chunks = n / SHARED_KEYS;
  bitonic_sort_shared<<<chunks, SHARED_THREADS>>>(d_keys);
  CORPUS_CHECK_LAUNCH();
  const unsigned threads = 256;
  const unsigned pair_blocks = (n / 2 + threads - 1) / threads;
  for (unsigned k = 2 * SHARED_KEYS; k <= n; k <<= 1) {
    for (unsigned j = k / 2; j >= SHARED_KEYS; j >>= 1) {
      bitonic_merge_global<<<pair_blocks, threads>>>(d_keys, n, k, j);
      CORPUS_CHECK_LAUNCH();
    }
    bitonic_merge_shared<<<chunks, SHARED_THREADS>>>(d_keys, k);
    CORPUS_CHECK_LAUNCH();
  }
}

int main() {
  const unsigned n = corpus::sized(1u << 20, 1u << 15);  // emulated: still global merge steps
  const int reps = corpus::reps(10);  // each sort is 55 launches over 4 MiB: ~0.2 ms on an H200
  static_assert(SHARED_KEYS % 2 == 0, "pairs");

  corpus::Rng rng(0xb170ull);
  std::vector<unsigned> h_in(n), h_out(n);
  for (auto& v : h_in) v = rng.next_u32();
  for (unsigned i = 0; i < n; i += 4099) h_in[i] = 12345u;  // some duplicate keys as well

  unsigned *d_in = nullptr, *d_keys = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_in, n * sizeof(unsigned)));
  CORPUS_CHECK(cudaMalloc(&d_keys, n * sizeof(unsigned)));
  CORPUS_CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));

  CORPUS_CHECK(cudaMemcpy(d_keys, d_in, n * sizeof(unsigned), cudaMemcpyDeviceToDevice));
  bitonic_sort(d_keys, n);  // warm-up
  CORPUS_CHECK(cudaDeviceSynchronize());

  // Every repetition sorts the unsorted input again (the copy is included in the time).
  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) {
    CORPUS_CHECK(cudaMemcpyAsync(d_keys, d_in, n * sizeof(unsigned), cudaMemcpyDeviceToDevice));
    bitonic_sort(d_keys, n);
  }
  const float gpu_ms = timer.stop();
  CORPUS_CHECK(cudaMemcpy(h_out.data(), d_keys, n * sizeof(unsigned), cudaMemcpyDeviceToHost));

  // CPU reference: std::sort. Keys only move, so the output must match exactly.
  std::vector<unsigned> ref(h_in);
  std::sort(ref.begin(), ref.end());
  size_t mismatches = 0;
  for (unsigned i = 0; i < n; ++i) mismatches += h_out[i] != ref[i];
  const bool pass = mismatches == 0;
  const double err = pass ? 0.0 : (double)mismatches / n;  // fraction of misplaced keys
  if (!pass) std::fprintf(stderr, "bitonic_sort: %zu keys out of place\n", mismatches);

  CORPUS_CHECK(cudaFree(d_in));
  CORPUS_CHECK(cudaFree(d_keys));
  return corpus::report("bitonic_sort", pass, err, gpu_ms);
}
