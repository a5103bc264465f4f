// 2D lattice random walks: 256 K independent walkers take 512 unit steps (+-x or +-y) from the
// origin. Randomness comes from a counter-based generator written here: a 64-bit hash of
// (seed, walker, block of 32 steps) gives 2 bits per step, so any walker's stream can be
// recomputed anywhere (no state to carry, identical on GPU and CPU). Each thread walks one
// walker, stores its final position, adds r^2 into a shared-memory radial histogram (merged
// with one global atomicAdd per bin) and the block's sum of r^2 into a 64-bit total.
// Checks: positions, histogram and sum of r^2 must match the CPU replay exactly (integers).
// Sanity of the generator: for a 2D walk E[r^2] = steps and r^2 is ~exponential (sd = steps),
// so the mean squared displacement over W walkers has relative SE 1/sqrt(W) (~0.2%); we
// require |msd / steps - 1| < 6 SE. The hash is deterministic, so this never flips.
#include "../include/corpus.cuh"

constexpr int kSteps = 512;
constexpr int kBins = 256;
constexpr int kBinWidth = 32;  // r^2 per histogram bin; the last bin takes the tail

__host__ __device__ inline unsigned long long walk_hash(unsigned long long seed,
                                                        unsigned long long walker,
                                                        unsigned long long block) {
  unsigned long long z = seed ^ (walker * 0xD1B54A32D192ED03ull) ^ (block * 0x8CB92BA72F3D8DD7ull);
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

__host__ __device__ inline int2 walk(unsigned long long seed, int walker) {
  int x = 0, y = 0;
  for (int b = 0; b < kSteps / 32; ++b) {
    unsigned long long bits = walk_hash(seed, walker, b);
    for (int s = 0; s < 32; ++s) {
      const int d = static_cast<int>(bits & 3ull);
      bits >>= 2;
      x += (d == 0) - (d == 1);
      y += (d == 2) - (d == 3);
    }
  }
  return make_int2(x, y);
}

__host__ __device__ inline int radial_bin(int r2) {
  const int b = r2 / kBinWidth;
  return b < kBins ? b : kBins - 1;
}

__global__ void random_walks(unsigned long long seed, int walkers, int2* __restrict__ final_pos,
                             unsigned int* __restrict__ hist, unsigned long long* __restrict__ sum_r2) {
  __shared__ unsigned int s_hist[kBins];
  __shared__ unsigned long long s_sum;
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) s_hist[b] = 0;
  if (threadIdx.x == 0) s_sum = 0;
  __syncthreads();
  const int w = blockIdx.x * blockDim.x + threadIdx.x;
  if (w < walkers) {
    const int2 p = walk(seed, w);
    final_pos[w] = p;
    const int r2 = p.x * p.x + p.y * p.y;
    atomicAdd(&s_hist[radial_bin(r2)], 1u);
    atomicAdd(&s_sum, static_cast<unsigned long long>(r2));
  }
  __syncthreads();
  for (int b = threadIdx.x; b < kBins; b += blockDim.x)
    if (s_hist[b] != 0) atomicAdd(&hist[b], s_hist[b]);
  if (threadIdx.x == 0) atomicAdd(sum_r2, s_sum);
}

int main() {
  const int walkers = corpus::sized(1 << 18, 1 << 12);
  corpus::Rng rng(0x3A1Cu);
  const unsigned long long seed = rng.next();

  int2* d_pos = nullptr;
  unsigned int* d_hist = nullptr;
  unsigned long long* d_sum = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_pos, walkers * sizeof(int2)));
  CORPUS_CHECK(cudaMalloc(&d_hist, kBins * sizeof(unsigned int)));
  CORPUS_CHECK(cudaMalloc(&d_sum, sizeof(unsigned long long)));

  const int threads = 256;
  const int blocks = (walkers + threads - 1) / threads;
  auto run = [&]() {
    CORPUS_CHECK(cudaMemsetAsync(d_hist, 0, kBins * sizeof(unsigned int)));
    CORPUS_CHECK(cudaMemsetAsync(d_sum, 0, sizeof(unsigned long long)));
    random_walks<<<blocks, threads>>>(seed, walkers, d_pos, d_hist, d_sum);
    CORPUS_CHECK_LAUNCH();
  };
  run();  // warm-up
  CORPUS_CHECK(cudaDeviceSynchronize());
  const int reps = corpus::reps(40);
  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) run();
  const float gpu_ms = timer.stop();

  std::vector<int2> pos(walkers);
  std::vector<unsigned int> hist(kBins);
  unsigned long long sum_r2 = 0;
  CORPUS_CHECK(cudaMemcpy(pos.data(), d_pos, walkers * sizeof(int2), cudaMemcpyDeviceToHost));
  CORPUS_CHECK(cudaMemcpy(hist.data(), d_hist, kBins * sizeof(unsigned int), cudaMemcpyDeviceToHost));
  CORPUS_CHECK(cudaMemcpy(&sum_r2, d_sum, sizeof(unsigned long long), cudaMemcpyDeviceToHost));

  // CPU replay of every walk with the same hash.
  std::vector<unsigned int> ref_hist(kBins, 0);
  unsigned long long ref_sum = 0;
  long long mismatches = 0;
  for (int w = 0; w < walkers; ++w) {
    const int2 p = walk(seed, w);
    if (p.x != pos[w].x || p.y != pos[w].y) ++mismatches;
    const int r2 = p.x * p.x + p.y * p.y;
    ++ref_hist[radial_bin(r2)];
    ref_sum += r2;
  }
  bool hist_ok = true;
  for (int b = 0; b < kBins; ++b) hist_ok = hist_ok && hist[b] == ref_hist[b];

  const double msd = static_cast<double>(ref_sum) / walkers;
  const double dev_se = (msd / kSteps - 1.0) * std::sqrt(static_cast<double>(walkers));
  std::printf("walks: msd %.2f for %d steps (%.2f SE), %lld position mismatches\n", msd, kSteps,
              dev_se, mismatches);
  const bool pass = mismatches == 0 && hist_ok && sum_r2 == ref_sum && std::fabs(dev_se) < 6.0;
  const double err = corpus::rel_err(static_cast<double>(sum_r2), static_cast<double>(ref_sum));

  CORPUS_CHECK(cudaFree(d_pos));
  CORPUS_CHECK(cudaFree(d_hist));
  CORPUS_CHECK(cudaFree(d_sum));
  return corpus::report("random_walk", pass, err, gpu_ms);
}
