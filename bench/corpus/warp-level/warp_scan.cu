// Inclusive prefix sum of 16 Mi unsigned ints built on the warp scan with __shfl_up_sync,
// written the usual CUDA way (offsets 1..16, lane = tid & 31). A block scans a 1024-element
// tile (4 per thread: thread-serial scan, warp scan of thread totals, warp 0 scans the warp
// totals) and emits the tile total; tile totals are scanned recursively by the same kernel and
// added back. Integer results, exact against a sequential CPU scan.
#include "../include/corpus.cuh"

namespace {

constexpr int kN = (1 << 24) + 333;  // not a multiple of the tile
constexpr int kThreads = 256;
constexpr int kPerThread = 4;
constexpr int kTileSize = kThreads * kPerThread;
constexpr int kReps = 20;

__device__ __forceinline__ unsigned warp_inclusive_scan(unsigned x) {
  const int lane = threadIdx.x & 31;
#pragma unroll
  for (int offset = 1; offset < 32; offset <<= 1) {
    const unsigned y = __shfl_up_sync(0xffffffff, x, offset);
    if (lane >= offset) x += y;
  }
  return x;
}

// in and out may alias (the tile is staged in shared memory before it is written).
__global__ void scan_tiles(const unsigned* in, unsigned* out, unsigned* tile_sums, int n) {
  __shared__ unsigned tile[kTileSize];
  __shared__ unsigned warp_sums[32];
  const int base = blockIdx.x * kTileSize;
  for (int i = threadIdx.x; i < kTileSize; i += blockDim.x) tile[i] = base + i < n ? in[base + i] : 0u;
  __syncthreads();

  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  unsigned v[kPerThread];
  unsigned run = 0;
#pragma unroll
  for (int k = 0; k < kPerThread; ++k) {
    run += tile[threadIdx.x * kPerThread + k];
    v[k] = run;
  }
  const unsigned incl = warp_inclusive_scan(run);
  if (lane == 31) warp_sums[warp] = incl;
  __syncthreads();
  if (warp == 0) {
    const int nwarps = blockDim.x >> 5;
    const unsigned w = warp_inclusive_scan(lane < nwarps ? warp_sums[lane] : 0u);
    if (lane < nwarps) warp_sums[lane] = w;
  }
  __syncthreads();
  const unsigned prefix = (warp > 0 ? warp_sums[warp - 1] : 0u) + incl - run;
#pragma unroll
  for (int k = 0; k < kPerThread; ++k) tile[threadIdx.x * kPerThread + k] = prefix + v[k];
  __syncthreads();
  for (int i = threadIdx.x; i < kTileSize; i += blockDim.x)
    if (base + i < n) out[base + i] = tile[i];
  if (threadIdx.x == blockDim.x - 1) tile_sums[blockIdx.x] = prefix + v[kPerThread - 1];
}

__global__ void add_tile_offsets(unsigned* data, const unsigned* __restrict__ scanned_sums, int n) {
  if (blockIdx.x == 0) return;
  const unsigned add = scanned_sums[blockIdx.x - 1];
  const int base = blockIdx.x * kTileSize;
  for (int i = threadIdx.x; i < kTileSize; i += blockDim.x)
    if (base + i < n) data[base + i] += add;
}

int num_tiles(int n) { return (n + kTileSize - 1) / kTileSize; }

// Inclusive scan of n elements; sums[level] holds the tile totals of this level.
void scan(const unsigned* in, unsigned* out, int n, unsigned* const* sums, int level) {
  const int tiles = num_tiles(n);
  scan_tiles<<<tiles, kThreads>>>(in, out, sums[level], n);
  CORPUS_CHECK_LAUNCH();
  if (tiles > 1) {
    scan(sums[level], sums[level], tiles, sums, level + 1);
    add_tile_offsets<<<tiles, kThreads>>>(out, sums[level], n);
    CORPUS_CHECK_LAUNCH();
  }
}

}  // namespace

int main() {
  // Emulated: 1 Mi + 333, still three levels of tile sums (1025 -> 2 -> 1 tiles).
  const int n_total = corpus::sized(kN, (1 << 20) + 333);
  const int reps = corpus::reps(kReps);
  std::vector<unsigned> h_in(n_total);
  corpus::Rng rng(0x5CA9);
  for (auto& v : h_in) v = rng.below(16);

  unsigned *d_in = nullptr, *d_out = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_in, n_total * sizeof(unsigned)));
  CORPUS_CHECK(cudaMalloc(&d_out, n_total * sizeof(unsigned)));
  CORPUS_CHECK(cudaMemcpy(d_in, h_in.data(), n_total * sizeof(unsigned), cudaMemcpyHostToDevice));
  std::vector<unsigned*> sums;  // one buffer per level until a single tile remains
  for (int n = n_total;; n = num_tiles(n)) {
    unsigned* p = nullptr;
    CORPUS_CHECK(cudaMalloc(&p, num_tiles(n) * sizeof(unsigned)));
    sums.push_back(p);
    if (num_tiles(n) == 1) break;
  }

  scan(d_in, d_out, n_total, sums.data(), 0);  // warm-up
  CORPUS_CHECK(cudaDeviceSynchronize());

  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) scan(d_in, d_out, n_total, sums.data(), 0);
  const float gpu_ms = timer.stop();

  std::vector<unsigned> got(n_total), want(n_total);
  CORPUS_CHECK(cudaMemcpy(got.data(), d_out, n_total * sizeof(unsigned), cudaMemcpyDeviceToHost));
  unsigned run = 0;
  for (int i = 0; i < n_total; ++i) want[i] = run += h_in[i];

  // Exact: integer prefix sums. Error measure = largest relative difference.
  const double err = corpus::max_rel_err(got, want, 1.0);

  CORPUS_CHECK(cudaFree(d_in));
  CORPUS_CHECK(cudaFree(d_out));
  for (unsigned* p : sums) CORPUS_CHECK(cudaFree(p));
  return corpus::report("warp_scan", err == 0.0, err, gpu_ms);
}
