// Connected components of a sparse random undirected graph (1 M vertices, 600 K edges, so
// there are many components of all sizes) by hooking and pointer jumping:
//   hook:     for every edge (u, v) with roots pu = parent[u], pv = parent[v], pu != pv:
//             atomicMin(&parent[max(pu, pv)], min(pu, pv)) and raise the "changed" flag;
//   compress: every vertex follows parent pointers up to its root (pointer jumping).
// Invariants: parent[x] <= x and parent[x] lies in x's component, so labels only decrease and
// the loop stops when no edge joins two different roots. The root of each tree is then the
// smallest vertex id of the component: a canonical label, compared exactly with a CPU
// union-find whose labels are canonicalised to the component minimum as well.
#include "../include/corpus.cuh"

__global__ void init_parent(int* __restrict__ parent, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) parent[i] = i;
}

__global__ void hook(const int2* __restrict__ edges, int m, int* parent, int* changed) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= m) return;
  const int2 uv = edges[e];
  const int pu = parent[uv.x];
  const int pv = parent[uv.y];
  if (pu != pv) {
    const int hi = pu > pv ? pu : pv;
    const int lo = pu > pv ? pv : pu;
    atomicMin(&parent[hi], lo);
    *changed = 1;
  }
}

__global__ void compress(int* parent, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int p = parent[i];
  int gp = parent[p];
  while (p != gp) {
    p = gp;
    gp = parent[p];
  }
  parent[i] = p;
}

static int find_root(std::vector<int>& uf, int x) {
  while (uf[x] != x) {
    uf[x] = uf[uf[x]];  // path halving
    x = uf[x];
  }
  return x;
}

int main() {
  const int n = corpus::sized(1 << 20, 1 << 15);
  const int m = corpus::sized(600000, 18750);  // same edge/vertex ratio when emulated
  corpus::Rng rng(0xC0C0u);
  std::vector<int2> edges(m);
  for (int e = 0; e < m; ++e) {
    const int u = static_cast<int>(rng.below(n));
    // Half the edges are local (chains and small clusters), half are long-range.
    const int v = (e & 1) ? static_cast<int>(rng.below(n))
                          : (u + 1 + static_cast<int>(rng.below(32))) % n;
    edges[e] = make_int2(u, v);
  }

  int2* d_edges = nullptr;
  int *d_parent = nullptr, *d_changed = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_edges, m * sizeof(int2)));
  CORPUS_CHECK(cudaMalloc(&d_parent, n * sizeof(int)));
  CORPUS_CHECK(cudaMalloc(&d_changed, sizeof(int)));
  CORPUS_CHECK(cudaMemcpy(d_edges, edges.data(), m * sizeof(int2), cudaMemcpyHostToDevice));

  const int threads = 256;
  int rounds = 0;
  auto run_cc = [&]() {
    init_parent<<<(n + threads - 1) / threads, threads>>>(d_parent, n);
    CORPUS_CHECK_LAUNCH();
    int changed = 1;
    rounds = 0;
    while (changed) {
      CORPUS_CHECK(cudaMemset(d_changed, 0, sizeof(int)));
      hook<<<(m + threads - 1) / threads, threads>>>(d_edges, m, d_parent, d_changed);
      CORPUS_CHECK_LAUNCH();
      compress<<<(n + threads - 1) / threads, threads>>>(d_parent, n);
      CORPUS_CHECK_LAUNCH();
      CORPUS_CHECK(cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost));
      ++rounds;
    }
  };

  run_cc();  // warm-up
  CORPUS_CHECK(cudaDeviceSynchronize());
  const int reps = corpus::reps(5);
  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) run_cc();
  const float gpu_ms = timer.stop();

  std::vector<int> h_label(n);
  CORPUS_CHECK(cudaMemcpy(h_label.data(), d_parent, n * sizeof(int), cudaMemcpyDeviceToHost));

  // CPU reference: union-find, then every component labelled with its smallest vertex.
  std::vector<int> uf(n);
  for (int i = 0; i < n; ++i) uf[i] = i;
  for (int e = 0; e < m; ++e) {
    const int a = find_root(uf, edges[e].x);
    const int b = find_root(uf, edges[e].y);
    if (a != b) uf[a > b ? a : b] = a > b ? b : a;  // keep the smaller id as the root
  }
  std::vector<int> min_id(n, n), ref(n);
  for (int i = 0; i < n; ++i) {
    const int r = find_root(uf, i);
    if (i < min_id[r]) min_id[r] = i;
  }
  int components = 0, largest = 0;
  std::vector<int> size(n, 0);
  for (int i = 0; i < n; ++i) {
    ref[i] = min_id[find_root(uf, i)];
    if (ref[i] == i) ++components;
    if (++size[ref[i]] > largest) largest = size[ref[i]];
  }

  // Tolerance: exact (canonical integer labels).
  long long mismatches = 0;
  for (int i = 0; i < n; ++i)
    if (h_label[i] != ref[i]) ++mismatches;
  const bool pass = mismatches == 0;
  std::printf("cc: %d vertices, %d edges, %d components (largest %d), %d rounds, %lld mismatches\n",
              n, m, components, largest, rounds, mismatches);

  CORPUS_CHECK(cudaFree(d_edges));
  CORPUS_CHECK(cudaFree(d_parent));
  CORPUS_CHECK(cudaFree(d_changed));
  return corpus::report("connected_components", pass, static_cast<double>(mismatches) / n, gpu_ms);
}
