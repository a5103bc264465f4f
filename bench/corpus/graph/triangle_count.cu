// Triangle counting on an undirected graph (256 K vertices, ~2 M edges) by sorted-adjacency
// intersection. Edges are oriented from the lower to the higher id and each adjacency list is
// sorted, so every triangle u < v < w is found exactly once, on edge (u, v), as the common
// element w of adj+(u) and adj+(v). One thread per oriented edge runs a merge intersection and
// writes the per-edge count; a shared-memory block reduction plus one 64-bit atomicAdd per
// block gives the total.
// The graph is "community" structured (most edges inside a sliding window of 256 ids) so it
// contains many triangles. Tolerance: exact (integer counts per edge and in total).
#include "../include/corpus.cuh"

#include <algorithm>

template <int BLOCK>
__global__ void count_triangles(const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
                                const int* __restrict__ edge_src, int m,
                                int* __restrict__ edge_count,
                                unsigned long long* __restrict__ total) {
  __shared__ unsigned long long partial[BLOCK];
  const int e = blockIdx.x * BLOCK + threadIdx.x;
  int count = 0;
  if (e < m) {
    const int u = edge_src[e];
    const int v = col_idx[e];
    int a = row_ptr[u], a_end = row_ptr[u + 1];
    int b = row_ptr[v], b_end = row_ptr[v + 1];
    while (a < a_end && b < b_end) {
      const int x = col_idx[a];
      const int y = col_idx[b];
      if (x == y) {
        ++count;
        ++a;
        ++b;
      } else if (x < y) {
        ++a;
      } else {
        ++b;
      }
    }
    edge_count[e] = count;
  }
  partial[threadIdx.x] = static_cast<unsigned long long>(count);
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(total, partial[0]);
}

int main() {
  const int n = corpus::sized(1 << 18, 1 << 13);  // emulated: ~64 K edges, 256 blocks
  corpus::Rng rng(0x7121u);
  std::vector<long long> keys;  // (lo << 32) | hi, deduplicated below
  keys.reserve(static_cast<size_t>(n) * 8);
  for (int u = 0; u < n; ++u) {
    for (int k = 0; k < 8; ++k) {
      const int v = (k < 6) ? (u + 1 + static_cast<int>(rng.below(255))) % n
                            : static_cast<int>(rng.below(n));
      if (u == v) continue;
      const long long lo = u < v ? u : v, hi = u < v ? v : u;
      keys.push_back((lo << 32) | hi);
    }
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  const int m = static_cast<int>(keys.size());
  // Sorted keys give a CSR of the oriented graph with sorted adjacency lists directly.
  std::vector<int> row_ptr(n + 1, 0), col_idx(m), edge_src(m);
  for (int e = 0; e < m; ++e) {
    edge_src[e] = static_cast<int>(keys[e] >> 32);
    col_idx[e] = static_cast<int>(keys[e] & 0xffffffffLL);
    ++row_ptr[edge_src[e] + 1];
  }
  for (int u = 0; u < n; ++u) row_ptr[u + 1] += row_ptr[u];

  int *d_row = nullptr, *d_col = nullptr, *d_src = nullptr, *d_count = nullptr;
  unsigned long long* d_total = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_row, (n + 1) * sizeof(int)));
  CORPUS_CHECK(cudaMalloc(&d_col, m * sizeof(int)));
  CORPUS_CHECK(cudaMalloc(&d_src, m * sizeof(int)));
  CORPUS_CHECK(cudaMalloc(&d_count, m * sizeof(int)));
  CORPUS_CHECK(cudaMalloc(&d_total, sizeof(unsigned long long)));
  CORPUS_CHECK(cudaMemcpy(d_row, row_ptr.data(), (n + 1) * sizeof(int), cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(d_col, col_idx.data(), m * sizeof(int), cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(d_src, edge_src.data(), m * sizeof(int), cudaMemcpyHostToDevice));

  constexpr int kBlock = 256;
  const int blocks = (m + kBlock - 1) / kBlock;
  auto run = [&]() {
    CORPUS_CHECK(cudaMemsetAsync(d_total, 0, sizeof(unsigned long long)));
    count_triangles<kBlock><<<blocks, kBlock>>>(d_row, d_col, d_src, m, d_count, d_total);
    CORPUS_CHECK_LAUNCH();
  };
  run();  // warm-up
  CORPUS_CHECK(cudaDeviceSynchronize());
  const int reps = corpus::reps(30);
  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) run();
  const float gpu_ms = timer.stop();

  std::vector<int> h_count(m);
  unsigned long long h_total = 0;
  CORPUS_CHECK(cudaMemcpy(h_count.data(), d_count, m * sizeof(int), cudaMemcpyDeviceToHost));
  CORPUS_CHECK(cudaMemcpy(&h_total, d_total, sizeof(unsigned long long), cudaMemcpyDeviceToHost));

  // CPU reference: the same intersection, sequentially.
  unsigned long long ref_total = 0;
  long long mismatches = 0;
  for (int e = 0; e < m; ++e) {
    const int u = edge_src[e], v = col_idx[e];
    int a = row_ptr[u], b = row_ptr[v], c = 0;
    while (a < row_ptr[u + 1] && b < row_ptr[v + 1]) {
      if (col_idx[a] == col_idx[b]) {
        ++c;
        ++a;
        ++b;
      } else if (col_idx[a] < col_idx[b]) {
        ++a;
      } else {
        ++b;
      }
    }
    ref_total += c;
    if (h_count[e] != c) ++mismatches;
  }

  // Tolerance: exact.
  const bool pass = mismatches == 0 && h_total == ref_total && ref_total > 0;
  std::printf("triangles: %d vertices, %d edges, %llu triangles (GPU %llu), %lld edge mismatches\n",
              n, m, ref_total, h_total, mismatches);
  const double err = corpus::rel_err(static_cast<double>(h_total), static_cast<double>(ref_total));

  CORPUS_CHECK(cudaFree(d_row));
  CORPUS_CHECK(cudaFree(d_col));
  CORPUS_CHECK(cudaFree(d_src));
  CORPUS_CHECK(cudaFree(d_count));
  CORPUS_CHECK(cudaFree(d_total));
  return corpus::report("triangle_count", pass, err, gpu_ms);
}
