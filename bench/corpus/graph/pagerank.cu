// Pull-based PageRank power iterations on a random CSR graph (512 K vertices, ~3 M edges).
// The graph is stored transposed (in-edges) so each vertex gathers the contributions of its
// in-neighbours without atomics:
//   contrib[u] = rank[u] / outdeg[u]
//   rank'[v]   = (1 - d) / n + d * sum_{u -> v} contrib[u]
// Every vertex has at least one out-edge, so there are no dangling vertices and the ranks keep
// summing to 1. Both sides run the same fixed number of iterations. A block reduction of the
// L1 change per iteration is kept on the GPU and reported.
// Tolerance: 1e-4 relative per vertex against a double CPU reference. A rank is a float sum of
// positive terms (~6 on average, a few thousand for the hub vertices near id 0); rounding
// errors of such sums grow like sqrt(k) * 6e-8 in practice (~3e-6 for the hubs), plus ~1e-6
// over 20 iterations, so 1e-4 leaves a wide margin while any missing or duplicated edge
// (one contribution is ~1/6 of a typical rank) is caught.
#include "../include/corpus.cuh"

#include <utility>

constexpr float kDamping = 0.85f;

__global__ void compute_contrib(const float* __restrict__ rank, const int* __restrict__ outdeg,
                                float* __restrict__ contrib, int n) {
  const int u = blockIdx.x * blockDim.x + threadIdx.x;
  if (u < n) contrib[u] = rank[u] / static_cast<float>(outdeg[u]);
}

template <int BLOCK>
__global__ void pull_ranks(const int* __restrict__ in_ptr, const int* __restrict__ in_src,
                           const float* __restrict__ contrib, const float* __restrict__ rank,
                           float* __restrict__ new_rank, int n, float* __restrict__ l1_delta) {
  __shared__ float partial[BLOCK];
  const int v = blockIdx.x * BLOCK + threadIdx.x;
  float delta = 0.0f;
  if (v < n) {
    float sum = 0.0f;
    for (int e = in_ptr[v]; e < in_ptr[v + 1]; ++e) sum += contrib[in_src[e]];
    const float r = (1.0f - kDamping) / static_cast<float>(n) + kDamping * sum;
    new_rank[v] = r;
    delta = fabsf(r - rank[v]);
  }
  partial[threadIdx.x] = delta;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(l1_delta, partial[0]);
}

int main() {
  const int n = corpus::sized(1 << 19, 1 << 13);
  const int iters = 20;
  corpus::Rng rng(0x9A6Eu);

  // Out-edges: out-degree 1..11, targets skewed towards low ids (a few popular vertices).
  std::vector<int> outdeg(n), src, dst;
  src.reserve(n * 6);
  dst.reserve(n * 6);
  for (int u = 0; u < n; ++u) {
    outdeg[u] = 1 + static_cast<int>(rng.below(11));
    for (int k = 0; k < outdeg[u]; ++k) {
      const float x = rng.uniform();
      src.push_back(u);
      dst.push_back(static_cast<int>(x * x * static_cast<float>(n)) % n);
    }
  }
  const int m = static_cast<int>(src.size());
  // Transpose to in-edge CSR with a counting sort.
  std::vector<int> in_ptr(n + 1, 0), in_src(m);
  for (int e = 0; e < m; ++e) ++in_ptr[dst[e] + 1];
  for (int v = 0; v < n; ++v) in_ptr[v + 1] += in_ptr[v];
  {
    std::vector<int> cursor(in_ptr.begin(), in_ptr.end() - 1);
    for (int e = 0; e < m; ++e) in_src[cursor[dst[e]]++] = src[e];
  }

  int *d_in_ptr = nullptr, *d_in_src = nullptr, *d_outdeg = nullptr;
  float *d_rank = nullptr, *d_new = nullptr, *d_contrib = nullptr, *d_delta = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_in_ptr, (n + 1) * sizeof(int)));
  CORPUS_CHECK(cudaMalloc(&d_in_src, m * sizeof(int)));
  CORPUS_CHECK(cudaMalloc(&d_outdeg, n * sizeof(int)));
  CORPUS_CHECK(cudaMalloc(&d_rank, n * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&d_new, n * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&d_contrib, n * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&d_delta, iters * sizeof(float)));
  CORPUS_CHECK(cudaMemcpy(d_in_ptr, in_ptr.data(), (n + 1) * sizeof(int), cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(d_in_src, in_src.data(), m * sizeof(int), cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(d_outdeg, outdeg.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  const std::vector<float> init(n, 1.0f / static_cast<float>(n));

  constexpr int kBlock = 256;
  const int blocks = (n + kBlock - 1) / kBlock;
  float* result = nullptr;
  auto run_pagerank = [&]() {
    CORPUS_CHECK(cudaMemcpy(d_rank, init.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CORPUS_CHECK(cudaMemset(d_delta, 0, iters * sizeof(float)));
    float* cur = d_rank;
    float* nxt = d_new;
    for (int it = 0; it < iters; ++it) {
      compute_contrib<<<blocks, kBlock>>>(cur, d_outdeg, d_contrib, n);
      CORPUS_CHECK_LAUNCH();
      pull_ranks<kBlock><<<blocks, kBlock>>>(d_in_ptr, d_in_src, d_contrib, cur, nxt, n, d_delta + it);
      CORPUS_CHECK_LAUNCH();
      std::swap(cur, nxt);
    }
    result = cur;
  };

  run_pagerank();  // warm-up
  CORPUS_CHECK(cudaDeviceSynchronize());
  const int reps = corpus::reps(4);
  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) run_pagerank();
  const float gpu_ms = timer.stop();

  std::vector<float> h_rank(n), h_delta(iters);
  CORPUS_CHECK(cudaMemcpy(h_rank.data(), result, n * sizeof(float), cudaMemcpyDeviceToHost));
  CORPUS_CHECK(cudaMemcpy(h_delta.data(), d_delta, iters * sizeof(float), cudaMemcpyDeviceToHost));

  // CPU reference in double, same iteration count.
  std::vector<double> rank(n, 1.0 / n), contrib(n), next(n);
  for (int it = 0; it < iters; ++it) {
    for (int u = 0; u < n; ++u) contrib[u] = rank[u] / outdeg[u];
    for (int v = 0; v < n; ++v) {
      double sum = 0.0;
      for (int e = in_ptr[v]; e < in_ptr[v + 1]; ++e) sum += contrib[in_src[e]];
      next[v] = (1.0 - kDamping) / n + kDamping * sum;
    }
    rank.swap(next);
  }

  // Floor: the smallest possible rank is (1-d)/n, so relative errors are well defined.
  const double floor = 0.1 * (1.0 - kDamping) / n;
  double worst = 0.0, total = 0.0;
  for (int v = 0; v < n; ++v) {
    const double e = corpus::rel_err(h_rank[v], rank[v], floor);
    if (!(e <= worst)) worst = e;
    total += h_rank[v];
  }
  const bool pass = worst <= 1e-4 && std::fabs(total - 1.0) < 1e-3;
  std::printf("pagerank: %d vertices, %d edges, L1 change first %.3e last %.3e, sum %.6f\n", n, m,
              h_delta[0], h_delta[iters - 1], total);

  CORPUS_CHECK(cudaFree(d_in_ptr));
  CORPUS_CHECK(cudaFree(d_in_src));
  CORPUS_CHECK(cudaFree(d_outdeg));
  CORPUS_CHECK(cudaFree(d_rank));
  CORPUS_CHECK(cudaFree(d_new));
  CORPUS_CHECK(cudaFree(d_contrib));
  CORPUS_CHECK(cudaFree(d_delta));
  return corpus::report("pagerank", pass, worst, gpu_ms);
}
