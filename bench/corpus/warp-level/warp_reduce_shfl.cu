// Warp and block reductions with __shfl_xor_sync, written the way CUDA code usually is: a
// 32-lane butterfly (offsets 16..1), lane = tid & 31, one shared slot per warp. Each block
// reduces a grid-stride slice of 16 Mi floats to a partial sum, maximum and minimum; a second
// one-block launch reduces the partials. The sum is compared with a double CPU sum (float
// tolerance); max and min must match exactly.
#include "../include/corpus.cuh"

#include <algorithm>
#include <cfloat>

namespace {

constexpr int kN = 1 << 24;
constexpr int kThreads = 256;
constexpr int kBlocks = 1024;
constexpr int kReps = 80;

struct Stats {
  float sum, mx, mn;
};

__device__ __forceinline__ Stats warp_reduce(Stats s) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) {
    s.sum += __shfl_xor_sync(0xffffffff, s.sum, offset);
    s.mx = fmaxf(s.mx, __shfl_xor_sync(0xffffffff, s.mx, offset));
    s.mn = fminf(s.mn, __shfl_xor_sync(0xffffffff, s.mn, offset));
  }
  return s;
}

// Block reduction: warp butterflies, then warp 0 reduces the per-warp results.
__device__ Stats block_reduce(Stats s) {
  __shared__ Stats warp_stats[32];
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  s = warp_reduce(s);
  if (lane == 0) warp_stats[warp] = s;
  __syncthreads();
  if (warp == 0) {
    const int nwarps = (blockDim.x + 31) >> 5;
    s = (lane < nwarps) ? warp_stats[lane] : Stats{0.0f, -FLT_MAX, FLT_MAX};
    s = warp_reduce(s);
  }
  return s;  // valid in thread 0
}

__global__ void reduce_partials(const float* __restrict__ x, int n, Stats* __restrict__ partials) {
  Stats s{0.0f, -FLT_MAX, FLT_MAX};
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const float v = x[i];
    s.sum += v;
    s.mx = fmaxf(s.mx, v);
    s.mn = fminf(s.mn, v);
  }
  s = block_reduce(s);
  if (threadIdx.x == 0) partials[blockIdx.x] = s;
}

__global__ void reduce_final(const Stats* __restrict__ partials, int n, Stats* __restrict__ result) {
  Stats s{0.0f, -FLT_MAX, FLT_MAX};
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    const Stats p = partials[i];
    s.sum += p.sum;
    s.mx = fmaxf(s.mx, p.mx);
    s.mn = fminf(s.mn, p.mn);
  }
  s = block_reduce(s);
  if (threadIdx.x == 0) *result = s;
}

}  // namespace

int main() {
  const int n = corpus::sized(kN, 1 << 18), blocks = corpus::sized(kBlocks, 128);
  const int reps = corpus::reps(kReps);
  std::vector<float> h_x(n);
  corpus::Rng rng(0x5F1);
  for (auto& v : h_x) v = rng.uniform(-1.0f, 3.0f);  // positive mean, so the sum is far from 0
  h_x[12345] = 7.5f;       // unique extremes at known places
  h_x[n - 3] = -4.25f;

  float* d_x = nullptr;
  Stats *d_partials = nullptr, *d_result = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_x, n * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&d_partials, blocks * sizeof(Stats)));
  CORPUS_CHECK(cudaMalloc(&d_result, sizeof(Stats)));
  CORPUS_CHECK(cudaMemcpy(d_x, h_x.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  auto run = [&]() {
    reduce_partials<<<blocks, kThreads>>>(d_x, n, d_partials);
    CORPUS_CHECK_LAUNCH();
    reduce_final<<<1, 1024>>>(d_partials, blocks, d_result);
    CORPUS_CHECK_LAUNCH();
  };
  run();  // warm-up
  CORPUS_CHECK(cudaDeviceSynchronize());

  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) run();
  const float gpu_ms = timer.stop();

  Stats got;
  CORPUS_CHECK(cudaMemcpy(&got, d_result, sizeof(Stats), cudaMemcpyDeviceToHost));

  double sum = 0.0;
  float mx = -FLT_MAX, mn = FLT_MAX;
  for (float v : h_x) {
    sum += v;
    mx = std::max(mx, v);
    mn = std::min(mn, v);
  }
  // Tolerance 1e-5 relative for the sum: each thread adds 64 floats serially, then 18 tree
  // levels follow; the worst-case float bound (64 + 18) * 6e-8 ~ 5e-6 is below 1e-5 and the
  // typical error is ~1e-7.
  // Max and min involve no rounding and must be exact.
  const double err = corpus::rel_err(got.sum, sum);
  const bool pass = err < 1e-5 && got.mx == mx && got.mn == mn;
  if (got.mx != mx || got.mn != mn) std::fprintf(stderr, "max/min: got %g %g want %g %g\n", got.mx, got.mn, mx, mn);

  CORPUS_CHECK(cudaFree(d_x));
  CORPUS_CHECK(cudaFree(d_partials));
  CORPUS_CHECK(cudaFree(d_result));
  return corpus::report("warp_reduce_shfl", pass, err, gpu_ms);
}
