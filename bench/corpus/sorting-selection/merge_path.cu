// Merge of two sorted key arrays (~4 M uint32 each, with duplicates) with merge-path
// partitioning, as in ModernGPU / CUB's DeviceMerge:
//   1. merge_partition: one thread per output tile binary-searches the merge path on the
//      tile's starting diagonal, which says how many keys of A precede that tile;
//   2. merge_tiles: each block stages exactly the A and B keys its 2048 outputs need into
//      shared memory, each thread finds its own 8-output sub-path there and merges serially,
//      and the block writes its tile back coalesced.
// The merge is stable (A before B on equal keys); besides the keys it emits each output's
// source position (i for A[i], |A| + j for B[j]), so the check also sees the tie order.
#include "../include/corpus.cuh"

#include <algorithm>

constexpr int THREADS = 256;
constexpr int ITEMS = 8;
constexpr int TILE = THREADS * ITEMS;

// Number of A keys among the first diag outputs of the stable merge of a and b.
__device__ __forceinline__ int merge_path(const unsigned* a, int na, const unsigned* b, int nb, int diag) {
  int lo = max(0, diag - nb);
  int hi = min(diag, na);
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    if (a[mid] <= b[diag - 1 - mid]) lo = mid + 1;  // a[mid] wins ties: it is inside
    else hi = mid;
  }
  return lo;
}

__global__ void merge_partition(const unsigned* __restrict__ a, int na, const unsigned* __restrict__ b,
                                int nb, int* __restrict__ parts, int num_parts) {
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= num_parts) return;
  const int diag = min(p * TILE, na + nb);
  parts[p] = merge_path(a, na, b, nb, diag);
}

__global__ void __launch_bounds__(THREADS)
merge_tiles(const unsigned* __restrict__ a, int na, const unsigned* __restrict__ b, int nb,
            const int* __restrict__ parts, unsigned* __restrict__ out_key, int* __restrict__ out_src) {
  __shared__ unsigned s_in[TILE];
  __shared__ unsigned s_key[TILE];
  __shared__ int s_src[TILE];
  const int d0 = blockIdx.x * TILE;
  const int d1 = min(d0 + TILE, na + nb);
  const int a0 = parts[blockIdx.x], a1 = parts[blockIdx.x + 1];
  const int b0 = d0 - a0, b1 = d1 - a1;
  const int la = a1 - a0, lb = b1 - b0;  // la + lb == d1 - d0

  for (int i = threadIdx.x; i < la + lb; i += THREADS) s_in[i] = i < la ? a[a0 + i] : b[b0 + i - la];
  __syncthreads();
  const unsigned* sa = s_in;
  const unsigned* sb = s_in + la;

  const int diag = min((int)threadIdx.x * ITEMS, la + lb);
  int ia = merge_path(sa, la, sb, lb, diag);
  int ib = diag - ia;
  for (int k = 0; k < ITEMS && diag + k < la + lb; ++k) {
    const bool take_a = ib >= lb || (ia < la && sa[ia] <= sb[ib]);
    if (take_a) {
      s_key[diag + k] = sa[ia];
      s_src[diag + k] = a0 + ia;
      ++ia;
    } else {
      s_key[diag + k] = sb[ib];
      s_src[diag + k] = na + b0 + ib;
      ++ib;
    }
  }
  __syncthreads();
  for (int i = threadIdx.x; i < la + lb; i += THREADS) {
    out_key[d0 + i] = s_key[i];
    out_src[d0 + i] = s_src[i];
  }
}

int main() {
  const int na = corpus::sized((1 << 22) + 123, (1 << 16) + 123);  // emulated: 65 tiles
  const int nb = corpus::sized((1 << 22) - 77, (1 << 16) - 77);
  const int n = na + nb;
  const int tiles = (n + TILE - 1) / TILE;
  const int reps = corpus::reps(50);  // ~100 MiB of traffic per merge: ~40 us on an H200

  // Sorted inputs with duplicates, built from random non-negative steps over the same range.
  corpus::Rng rng(0x3e76eull);
  std::vector<unsigned> ha(na), hb(nb);
  unsigned v = 0;
  for (auto& x : ha) x = (v += rng.below(4));
  v = 0;
  for (auto& x : hb) x = (v += rng.below(4));

  unsigned *d_a = nullptr, *d_b = nullptr, *d_key = nullptr;
  int *d_parts = nullptr, *d_src = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_a, (size_t)na * sizeof(unsigned)));
  CORPUS_CHECK(cudaMalloc(&d_b, (size_t)nb * sizeof(unsigned)));
  CORPUS_CHECK(cudaMalloc(&d_key, (size_t)n * sizeof(unsigned)));
  CORPUS_CHECK(cudaMalloc(&d_src, (size_t)n * sizeof(int)));
  CORPUS_CHECK(cudaMalloc(&d_parts, (size_t)(tiles + 1) * sizeof(int)));
  CORPUS_CHECK(cudaMemcpy(d_a, ha.data(), (size_t)na * sizeof(unsigned), cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(d_b, hb.data(), (size_t)nb * sizeof(unsigned), cudaMemcpyHostToDevice));

  auto merge = [&]() {
    merge_partition<<<(tiles + 1 + 255) / 256, 256>>>(d_a, na, d_b, nb, d_parts, tiles + 1);
    CORPUS_CHECK_LAUNCH();
    merge_tiles<<<tiles, THREADS>>>(d_a, na, d_b, nb, d_parts, d_key, d_src);
    CORPUS_CHECK_LAUNCH();
  };
  merge();  // warm-up
  CORPUS_CHECK(cudaDeviceSynchronize());

  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) merge();
  const float gpu_ms = timer.stop();

  std::vector<unsigned> h_key(n);
  std::vector<int> h_src(n);
  CORPUS_CHECK(cudaMemcpy(h_key.data(), d_key, (size_t)n * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CORPUS_CHECK(cudaMemcpy(h_src.data(), d_src, (size_t)n * sizeof(int), cudaMemcpyDeviceToHost));

  // CPU reference: sequential stable merge (A first on ties). Keys and sources must match
  // exactly (tolerance 0): a merge only moves keys.
  size_t mismatches = 0;
  int i = 0, j = 0;
  for (int o = 0; o < n; ++o) {
    const bool take_a = j >= nb || (i < na && ha[i] <= hb[j]);
    const unsigned key = take_a ? ha[i] : hb[j];
    const int src = take_a ? i++ : na + j++;
    mismatches += h_key[o] != key || h_src[o] != src;
  }
  const bool pass = mismatches == 0 && std::is_sorted(h_key.begin(), h_key.end());
  const double err = pass ? 0.0 : (double)mismatches / n;  // fraction of wrong outputs
  if (!pass) std::fprintf(stderr, "merge_path: %zu of %d outputs differ\n", mismatches, n);

  CORPUS_CHECK(cudaFree(d_a));
  CORPUS_CHECK(cudaFree(d_b));
  CORPUS_CHECK(cudaFree(d_key));
  CORPUS_CHECK(cudaFree(d_src));
  CORPUS_CHECK(cudaFree(d_parts));
  return corpus::report("merge_path", pass, err, gpu_ms);
}
