// Argmin of 16 M floats: the smallest value and its index, ties going to the lowest index
// (what std::min_element returns). Two passes, no atomics: a grid-stride pass where every
// block reduces (value, index) pairs with warp shuffles and writes one pair, then a single
// block reduces the per-block pairs. The input is quantised so that the minimum occurs many
// times, which makes the tie rule matter.
#include "../include/corpus.cuh"

#include <algorithm>
#include <climits>

constexpr unsigned FULL_MASK = 0xffffffffu;

// Keeps the better of (v, i) and (ov, oi): smaller value, then smaller index.
__device__ __forceinline__ void take_better(float& v, int& i, float ov, int oi) {
  if (ov < v || (ov == v && oi < i)) {
    v = ov;
    i = oi;
  }
}

__device__ __forceinline__ void warp_argmin(float& v, int& i) {
  for (int offset = warpSize / 2; offset > 0; offset >>= 1) {
    const float ov = __shfl_down_sync(FULL_MASK, v, offset);
    const int oi = __shfl_down_sync(FULL_MASK, i, offset);
    take_better(v, i, ov, oi);
  }
}

// in_idx == nullptr: element k has index k (first pass); otherwise indices come with the values.
__global__ void argmin_pass(const float* __restrict__ in_val, const int* __restrict__ in_idx, int n,
                            float* __restrict__ out_val, int* __restrict__ out_idx) {
  __shared__ float warp_val[64];
  __shared__ int warp_idx[64];
  float v = INFINITY;
  int idx = INT_MAX;
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < n; k += blockDim.x * gridDim.x)
    take_better(v, idx, in_val[k], in_idx ? in_idx[k] : k);

  const int lane = threadIdx.x % warpSize;
  const int wid = threadIdx.x / warpSize;
  const int nwarps = (blockDim.x + warpSize - 1) / warpSize;
  warp_argmin(v, idx);
  if (lane == 0) {
    warp_val[wid] = v;
    warp_idx[wid] = idx;
  }
  __syncthreads();
  if (wid == 0) {
    v = lane < nwarps ? warp_val[lane] : INFINITY;
    idx = lane < nwarps ? warp_idx[lane] : INT_MAX;
    warp_argmin(v, idx);
    if (lane == 0) {
      out_val[blockIdx.x] = v;
      out_idx[blockIdx.x] = idx;
    }
  }
}

int main() {
  const int n = corpus::sized(1 << 24, 1 << 20);  // emulated: still ~10 copies of the minimum
  const int threads = 256;
  const int blocks = corpus::sized(1024, 256);
  const int reps = corpus::reps(100);  // 64 MiB read per argmin: ~20 us on an H200

  corpus::Rng rng(0xa9317ull);
  std::vector<float> h_in(n);
  // 100000 distinct values over 16 M elements: the minimum appears ~170 times.
  for (auto& v : h_in) v = 0.5f * (float)rng.below(100000) - 1000.0f;

  float *d_in = nullptr, *d_pval = nullptr, *d_val = nullptr;
  int *d_pidx = nullptr, *d_idx = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_in, (size_t)n * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&d_pval, blocks * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&d_pidx, blocks * sizeof(int)));
  CORPUS_CHECK(cudaMalloc(&d_val, sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&d_idx, sizeof(int)));
  CORPUS_CHECK(cudaMemcpy(d_in, h_in.data(), (size_t)n * sizeof(float), cudaMemcpyHostToDevice));

  auto run = [&]() {
    argmin_pass<<<blocks, threads>>>(d_in, nullptr, n, d_pval, d_pidx);
    CORPUS_CHECK_LAUNCH();
    argmin_pass<<<1, threads>>>(d_pval, d_pidx, blocks, d_val, d_idx);
    CORPUS_CHECK_LAUNCH();
  };
  run();  // warm-up
  CORPUS_CHECK(cudaDeviceSynchronize());

  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) run();
  const float gpu_ms = timer.stop();

  float g_val = 0.0f;
  int g_idx = -1;
  CORPUS_CHECK(cudaMemcpy(&g_val, d_val, sizeof(float), cudaMemcpyDeviceToHost));
  CORPUS_CHECK(cudaMemcpy(&g_idx, d_idx, sizeof(int), cudaMemcpyDeviceToHost));

  // CPU reference: std::min_element returns the first (lowest-index) minimum.
  const auto it = std::min_element(h_in.begin(), h_in.end());
  const float ref_val = *it;
  const int ref_idx = (int)(it - h_in.begin());
  const long ties = std::count(h_in.begin(), h_in.end(), ref_val);

  // Comparisons only, no arithmetic: value and index must match exactly (tolerance 0).
  const bool pass = g_val == ref_val && g_idx == ref_idx;
  const double err = corpus::rel_err(g_val, ref_val, 1.0) + (g_idx == ref_idx ? 0.0 : 1.0);
  if (!pass)
    std::fprintf(stderr, "argmin: got %g @ %d, want %g @ %d (%ld ties)\n", g_val, g_idx, ref_val, ref_idx, ties);

  CORPUS_CHECK(cudaFree(d_in));
  CORPUS_CHECK(cudaFree(d_pval));
  CORPUS_CHECK(cudaFree(d_pidx));
  CORPUS_CHECK(cudaFree(d_val));
  CORPUS_CHECK(cudaFree(d_idx));
  return corpus::report("argmin", pass, err, gpu_ms);
}
