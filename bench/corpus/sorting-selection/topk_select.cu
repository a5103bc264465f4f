// Top-k per row: for each of 4096 rows of 1024 floats, the k = 32 largest values and their
// column indices, best first. One block per row: the row is loaded into shared memory as
// (value, column) pairs, bitonic-sorted there best-first, and only the first k pairs are
// written back. "Best" is the larger value, and the smaller column among equal values, so
// the answer is unique even though the input is quantised to produce ties.
#include "../include/corpus.cuh"

#include <algorithm>
#include <numeric>

// True when (va, ia) ranks before (vb, ib).
__device__ __host__ __forceinline__ bool ranks_before(float va, int ia, float vb, int ib) {
  return va > vb || (va == vb && ia < ib);
}

template <int COLS>
__global__ void topk_rows(const float* __restrict__ in, float* __restrict__ out_val,
                          int* __restrict__ out_idx, int rows, int k) {
  static_assert((COLS & (COLS - 1)) == 0, "bitonic sort needs a power of two");
  __shared__ float sv[COLS];
  __shared__ int si[COLS];
  const int row = blockIdx.x;
  if (row >= rows) return;  // uniform for the block
  const float* src = in + (size_t)row * COLS;
  for (int i = threadIdx.x; i < COLS; i += blockDim.x) {
    sv[i] = src[i];
    si[i] = i;
  }

  for (unsigned size = 2; size <= COLS; size <<= 1) {
    for (unsigned j = size / 2; j > 0; j >>= 1) {
      __syncthreads();
      for (unsigned t = threadIdx.x; t < COLS / 2; t += blockDim.x) {
        const unsigned lo = 2 * j * (t / j) + (t % j);
        const unsigned hi = lo + j;
        // Segments with (lo & size) == 0 are ordered best-first, the others worst-first;
        // the last stage (size == COLS) orders the whole row best-first.
        const bool best_first = (lo & size) == 0;
        if (ranks_before(sv[hi], si[hi], sv[lo], si[lo]) == best_first) {
          const float tv = sv[lo];
          sv[lo] = sv[hi];
          sv[hi] = tv;
          const int ti = si[lo];
          si[lo] = si[hi];
          si[hi] = ti;
        }
      }
    }
  }
  __syncthreads();
  for (int i = threadIdx.x; i < k; i += blockDim.x) {
    out_val[(size_t)row * k + i] = sv[i];
    out_idx[(size_t)row * k + i] = si[i];
  }
}

int main() {
  constexpr int COLS = 1024;
  const int rows = corpus::sized(4096, 64);
  const int k = 32;
  const int threads = COLS / 2;  // one compare-exchange pair per thread and step
  const int reps = corpus::reps(40);  // 55 shared-memory steps per row: ~50 us per call

  corpus::Rng rng(0x70bcull);
  std::vector<float> h_in((size_t)rows * COLS);
  for (auto& v : h_in) v = 0.25f * (float)rng.below(4096) - 512.0f;  // many equal values per row

  float *d_in = nullptr, *d_val = nullptr;
  int* d_idx = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_in, h_in.size() * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&d_val, (size_t)rows * k * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&d_idx, (size_t)rows * k * sizeof(int)));
  CORPUS_CHECK(cudaMemcpy(d_in, h_in.data(), h_in.size() * sizeof(float), cudaMemcpyHostToDevice));

  topk_rows<COLS><<<rows, threads>>>(d_in, d_val, d_idx, rows, k);  // warm-up
  CORPUS_CHECK_LAUNCH();
  CORPUS_CHECK(cudaDeviceSynchronize());

  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) {
    topk_rows<COLS><<<rows, threads>>>(d_in, d_val, d_idx, rows, k);
    CORPUS_CHECK_LAUNCH();
  }
  const float gpu_ms = timer.stop();

  std::vector<float> h_val((size_t)rows * k);
  std::vector<int> h_idx((size_t)rows * k);
  CORPUS_CHECK(cudaMemcpy(h_val.data(), d_val, h_val.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CORPUS_CHECK(cudaMemcpy(h_idx.data(), d_idx, h_idx.size() * sizeof(int), cudaMemcpyDeviceToHost));

  // CPU reference: std::partial_sort of the column indices with the same total order.
  // Only comparisons are involved, so values and indices must match exactly (tolerance 0).
  std::vector<float> ref_val((size_t)rows * k);
  std::vector<int> order(COLS);
  size_t mismatches = 0;
  for (int r = 0; r < rows; ++r) {
    const float* v = &h_in[(size_t)r * COLS];
    std::iota(order.begin(), order.end(), 0);
    std::partial_sort(order.begin(), order.begin() + k, order.end(),
                      [v](int a, int b) { return ranks_before(v[a], a, v[b], b); });
    for (int i = 0; i < k; ++i) {
      const size_t o = (size_t)r * k + i;
      ref_val[o] = v[order[i]];
      mismatches += h_val[o] != ref_val[o] || h_idx[o] != order[i];
    }
  }
  const double err = corpus::max_rel_err(h_val, ref_val, 1.0);
  const bool pass = mismatches == 0;
  if (!pass) std::fprintf(stderr, "topk_select: %zu of %d entries differ\n", mismatches, rows * k);

  CORPUS_CHECK(cudaFree(d_in));
  CORPUS_CHECK(cudaFree(d_val));
  CORPUS_CHECK(cudaFree(d_idx));
  return corpus::report("topk_select", pass, err, gpu_ms);
}
