// Level-synchronous breadth-first search over a random directed CSR graph (1 M vertices,
// ~8 M edges). Each level expands the current frontier queue: one thread per frontier vertex
// walks its adjacency list, claims unvisited neighbours with atomicCAS on the level array and
// appends them to the next queue with an atomicAdd on the queue tail. The host swaps queues
// and stops when the next frontier is empty.
// BFS levels are unique whatever order the atomics win in, so the GPU levels must match the
// CPU reference exactly (integers).
#include "../include/corpus.cuh"

#include <utility>

__global__ void bfs_expand(const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
                           const int* __restrict__ frontier, int frontier_size, int depth,
                           int* __restrict__ level, int* __restrict__ next_frontier,
                           int* __restrict__ next_size) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= frontier_size) return;
  const int u = frontier[t];
  const int begin = row_ptr[u];
  const int end = row_ptr[u + 1];
  for (int e = begin; e < end; ++e) {
    const int v = col_idx[e];
    // Cheap read first: skip the atomic for neighbours that are already visited.
    if (level[v] != -1) continue;
    if (atomicCAS(&level[v], -1, depth + 1) == -1) {
      const int slot = atomicAdd(next_size, 1);
      next_frontier[slot] = v;
    }
  }
}

__global__ void bfs_init(int* __restrict__ level, int n, int source) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) level[i] = (i == source) ? 0 : -1;
}

int main() {
  const int n = corpus::sized(1 << 20, 1 << 15);
  const int source = 12345;
  corpus::Rng rng(0xBF5u);

  // Random out-degree 2..14 (mean 8); targets mostly uniform, a quarter of them local so the
  // graph has some structure and a non-trivial number of levels.
  std::vector<int> row_ptr(n + 1, 0);
  for (int u = 0; u < n; ++u) row_ptr[u + 1] = row_ptr[u] + 2 + static_cast<int>(rng.below(13));
  const int m = row_ptr[n];
  std::vector<int> col_idx(m);
  for (int u = 0; u < n; ++u) {
    for (int e = row_ptr[u]; e < row_ptr[u + 1]; ++e) {
      const std::uint32_t r = rng.next_u32();
      if ((r & 3u) == 0) col_idx[e] = (u + 1 + static_cast<int>((r >> 2) % 64u)) % n;
      else col_idx[e] = static_cast<int>(rng.below(n));
    }
  }

  int *d_row = nullptr, *d_col = nullptr, *d_level = nullptr, *d_q0 = nullptr, *d_q1 = nullptr,
      *d_size = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_row, (n + 1) * sizeof(int)));
  CORPUS_CHECK(cudaMalloc(&d_col, m * sizeof(int)));
  CORPUS_CHECK(cudaMalloc(&d_level, n * sizeof(int)));
  CORPUS_CHECK(cudaMalloc(&d_q0, n * sizeof(int)));
  CORPUS_CHECK(cudaMalloc(&d_q1, n * sizeof(int)));
  CORPUS_CHECK(cudaMalloc(&d_size, sizeof(int)));
  CORPUS_CHECK(cudaMemcpy(d_row, row_ptr.data(), (n + 1) * sizeof(int), cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(d_col, col_idx.data(), m * sizeof(int), cudaMemcpyHostToDevice));

  const int threads = 256;
  int levels = 0;
  auto run_bfs = [&]() {
    bfs_init<<<(n + threads - 1) / threads, threads>>>(d_level, n, source);
    CORPUS_CHECK_LAUNCH();
    CORPUS_CHECK(cudaMemcpy(d_q0, &source, sizeof(int), cudaMemcpyHostToDevice));
    int* cur = d_q0;
    int* nxt = d_q1;
    int size = 1;
    int depth = 0;
    while (size > 0) {
      CORPUS_CHECK(cudaMemset(d_size, 0, sizeof(int)));
      bfs_expand<<<(size + threads - 1) / threads, threads>>>(d_row, d_col, cur, size, depth,
                                                               d_level, nxt, d_size);
      CORPUS_CHECK_LAUNCH();
      CORPUS_CHECK(cudaMemcpy(&size, d_size, sizeof(int), cudaMemcpyDeviceToHost));
      std::swap(cur, nxt);
      ++depth;
    }
    levels = depth;
  };

  run_bfs();  // warm-up
  CORPUS_CHECK(cudaDeviceSynchronize());
  const int reps = corpus::reps(5);
  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) run_bfs();
  const float gpu_ms = timer.stop();

  std::vector<int> h_level(n);
  CORPUS_CHECK(cudaMemcpy(h_level.data(), d_level, n * sizeof(int), cudaMemcpyDeviceToHost));

  // CPU reference: queue-based BFS.
  std::vector<int> ref(n, -1), queue(n);
  ref[source] = 0;
  int head = 0, tail = 0;
  queue[tail++] = source;
  while (head < tail) {
    const int u = queue[head++];
    for (int e = row_ptr[u]; e < row_ptr[u + 1]; ++e) {
      const int v = col_idx[e];
      if (ref[v] == -1) {
        ref[v] = ref[u] + 1;
        queue[tail++] = v;
      }
    }
  }

  // Tolerance: exact (BFS levels are integers and unique).
  long long mismatches = 0;
  int max_level = 0;
  for (int i = 0; i < n; ++i) {
    if (h_level[i] != ref[i]) ++mismatches;
    if (ref[i] > max_level) max_level = ref[i];
  }
  const bool pass = mismatches == 0 && levels == max_level + 1 && tail > n / 2;
  std::printf("bfs: %d vertices, %d edges, %d reached, %d levels, %lld mismatches\n", n, m, tail,
              max_level + 1, mismatches);

  CORPUS_CHECK(cudaFree(d_row));
  CORPUS_CHECK(cudaFree(d_col));
  CORPUS_CHECK(cudaFree(d_level));
  CORPUS_CHECK(cudaFree(d_q0));
  CORPUS_CHECK(cudaFree(d_q1));
  CORPUS_CHECK(cudaFree(d_size));
  return corpus::report("bfs_frontier", pass, static_cast<double>(mismatches) / n, gpu_ms);
}
