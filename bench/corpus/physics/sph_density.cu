// SPH density summation with a uniform-grid neighbour search (256 K particles in the unit
// cube, 32^3 cells of edge h = smoothing length). The grid is built on the GPU by counting
// sort: (1) each particle computes its cell and atomically counts it, (2) an exclusive scan of
// the cell counts (block-level shared-memory scans, a scan of the block sums, then offsets)
// gives each cell's start, (3) particles are scattered into cell order with per-cell atomic
// cursors. The density kernel then visits the 27 neighbouring cells of each particle:
//   rho_i = sum_{|r_ij| < h} m * 315 / (64 pi h^9) * (h^2 - r_ij^2)^3      (poly6 kernel)
// A quarter of the particles sit in 8 Gaussian clumps, so neighbour counts vary (~30 in the
// background, a few hundred in the clump cores).
// Checks: cell starts exactly (integers); densities against a CPU double reference built with
// its own counting sort, 1e-4 relative. The order of particles inside a cell depends on
// atomics, so float sums differ in order; every term is positive and computed from exact float
// inputs to ~5 ulp, so a sum of k <= ~600 terms is within ~k * 6e-8 of the exact value in the
// worst case (3.6e-5) and far less in practice, while a missed neighbour cell changes a density
// by several percent.
#include "../include/corpus.cuh"

#include <algorithm>

constexpr int kGrid = 32;
constexpr int kCells = kGrid * kGrid * kGrid;
constexpr int kScanBlock = 512;
constexpr float kH = 1.0f / kGrid;
constexpr float kMass = 1.0f / (1 << 18);

__host__ __device__ inline int cell_coord(float x) {
  const int c = static_cast<int>(x * kGrid);
  return c < 0 ? 0 : (c >= kGrid ? kGrid - 1 : c);
}

__global__ void count_cells(const float4* __restrict__ pos, int n, int* __restrict__ cell_of,
                            unsigned int* __restrict__ cell_count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float4 p = pos[i];
  const int c = (cell_coord(p.z) * kGrid + cell_coord(p.y)) * kGrid + cell_coord(p.x);
  cell_of[i] = c;
  atomicAdd(&cell_count[c], 1u);
}

// Exclusive scan of one kScanBlock-element chunk per block (Hillis-Steele in shared memory).
__global__ void block_scan(const unsigned int* __restrict__ in, unsigned int* __restrict__ out,
                           unsigned int* __restrict__ block_sums, int n) {
  __shared__ unsigned int s[kScanBlock];
  const int i = blockIdx.x * kScanBlock + threadIdx.x;
  const unsigned int v = i < n ? in[i] : 0u;
  s[threadIdx.x] = v;
  __syncthreads();
  for (int off = 1; off < kScanBlock; off *= 2) {
    const unsigned int t = threadIdx.x >= off ? s[threadIdx.x - off] : 0u;
    __syncthreads();
    s[threadIdx.x] += t;
    __syncthreads();
  }
  if (i < n) out[i] = s[threadIdx.x] - v;
  if (block_sums != nullptr && threadIdx.x == kScanBlock - 1) block_sums[blockIdx.x] = s[threadIdx.x];
}

__global__ void add_offsets(unsigned int* __restrict__ data, const unsigned int* __restrict__ offsets, int n) {
  const int i = blockIdx.x * kScanBlock + threadIdx.x;
  if (i < n) data[i] += offsets[blockIdx.x];
}

__global__ void scatter(const float4* __restrict__ pos, const int* __restrict__ cell_of, int n,
                        const unsigned int* __restrict__ cell_start, unsigned int* __restrict__ cursor,
                        float4* __restrict__ sorted_pos) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int c = cell_of[i];
  sorted_pos[cell_start[c] + atomicAdd(&cursor[c], 1u)] = pos[i];
}

__global__ void density(const float4* __restrict__ pos, int n, const float4* __restrict__ sorted_pos,
                        const unsigned int* __restrict__ cell_start,
                        const unsigned int* __restrict__ cell_count, float* __restrict__ rho) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float4 p = pos[i];
  const int cx = cell_coord(p.x), cy = cell_coord(p.y), cz = cell_coord(p.z);
  const float h2 = kH * kH;
  float sum = 0.0f;
  for (int z = max(cz - 1, 0); z <= min(cz + 1, kGrid - 1); ++z)
    for (int y = max(cy - 1, 0); y <= min(cy + 1, kGrid - 1); ++y)
      for (int x = max(cx - 1, 0); x <= min(cx + 1, kGrid - 1); ++x) {
        const int c = (z * kGrid + y) * kGrid + x;
        const unsigned int begin = cell_start[c], end = begin + cell_count[c];
        for (unsigned int k = begin; k < end; ++k) {
          const float4 q = sorted_pos[k];
          const float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
          const float r2 = dx * dx + dy * dy + dz * dz;
          if (r2 < h2) {
            const float d = h2 - r2;
            sum += d * d * d;
          }
        }
      }
  const float poly6 = 315.0f / (64.0f * 3.14159265f * powf(kH, 9.0f));
  rho[i] = kMass * poly6 * sum;
}

int main() {
  const int n = corpus::sized(1 << 18, 1 << 14);
  corpus::Rng rng(0x5E4u);
  std::vector<float4> pos(n);
  float blobs[8][3];
  for (auto& b : blobs)
    for (float& c : b) c = rng.uniform(0.2f, 0.8f);
  for (int i = 0; i < n; ++i) {
    float c[3];
    for (int d = 0; d < 3; ++d) {
      if (i % 4 == 0) {  // clump: centre + approx. Gaussian (sum of 3 uniforms), sd ~0.06
        const float g = rng.uniform() + rng.uniform() + rng.uniform() - 1.5f;
        c[d] = blobs[i / 4 % 8][d] + 0.12f * g;
      } else {
        c[d] = rng.uniform();
      }
      c[d] = std::fmin(std::fmax(c[d], 0.0f), 0.999999f);
    }
    pos[i] = make_float4(c[0], c[1], c[2], 0.0f);
  }

  float4 *d_pos = nullptr, *d_sorted = nullptr;
  int* d_cell_of = nullptr;
  unsigned int *d_count = nullptr, *d_start = nullptr, *d_cursor = nullptr, *d_block_sums = nullptr,
               *d_block_offsets = nullptr;
  float* d_rho = nullptr;
  const int scan_blocks = (kCells + kScanBlock - 1) / kScanBlock;  // 64 <= kScanBlock
  CORPUS_CHECK(cudaMalloc(&d_pos, n * sizeof(float4)));
  CORPUS_CHECK(cudaMalloc(&d_sorted, n * sizeof(float4)));
  CORPUS_CHECK(cudaMalloc(&d_cell_of, n * sizeof(int)));
  CORPUS_CHECK(cudaMalloc(&d_count, kCells * sizeof(unsigned int)));
  CORPUS_CHECK(cudaMalloc(&d_start, kCells * sizeof(unsigned int)));
  CORPUS_CHECK(cudaMalloc(&d_cursor, kCells * sizeof(unsigned int)));
  CORPUS_CHECK(cudaMalloc(&d_block_sums, scan_blocks * sizeof(unsigned int)));
  CORPUS_CHECK(cudaMalloc(&d_block_offsets, scan_blocks * sizeof(unsigned int)));
  CORPUS_CHECK(cudaMalloc(&d_rho, n * sizeof(float)));
  CORPUS_CHECK(cudaMemcpy(d_pos, pos.data(), n * sizeof(float4), cudaMemcpyHostToDevice));

  const int threads = 256;
  const int blocks = (n + threads - 1) / threads;
  auto run = [&]() {
    CORPUS_CHECK(cudaMemsetAsync(d_count, 0, kCells * sizeof(unsigned int)));
    CORPUS_CHECK(cudaMemsetAsync(d_cursor, 0, kCells * sizeof(unsigned int)));
    count_cells<<<blocks, threads>>>(d_pos, n, d_cell_of, d_count);
    CORPUS_CHECK_LAUNCH();
    block_scan<<<scan_blocks, kScanBlock>>>(d_count, d_start, d_block_sums, kCells);
    CORPUS_CHECK_LAUNCH();
    block_scan<<<1, kScanBlock>>>(d_block_sums, d_block_offsets, nullptr, scan_blocks);
    CORPUS_CHECK_LAUNCH();
    add_offsets<<<scan_blocks, kScanBlock>>>(d_start, d_block_offsets, kCells);
    CORPUS_CHECK_LAUNCH();
    scatter<<<blocks, threads>>>(d_pos, d_cell_of, n, d_start, d_cursor, d_sorted);
    CORPUS_CHECK_LAUNCH();
    density<<<blocks, threads>>>(d_pos, n, d_sorted, d_start, d_count, d_rho);
    CORPUS_CHECK_LAUNCH();
  };
  run();  // warm-up
  CORPUS_CHECK(cudaDeviceSynchronize());
  const int reps = corpus::reps(10);
  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) run();
  const float gpu_ms = timer.stop();

  std::vector<unsigned int> start(kCells);
  std::vector<float> rho(n);
  CORPUS_CHECK(cudaMemcpy(start.data(), d_start, kCells * sizeof(unsigned int), cudaMemcpyDeviceToHost));
  CORPUS_CHECK(cudaMemcpy(rho.data(), d_rho, n * sizeof(float), cudaMemcpyDeviceToHost));

  // CPU reference: sequential counting sort, then the same neighbour search in double.
  std::vector<int> cell_of(n), ref_start(kCells + 1, 0), order(n);
  for (int i = 0; i < n; ++i) {
    cell_of[i] = (cell_coord(pos[i].z) * kGrid + cell_coord(pos[i].y)) * kGrid + cell_coord(pos[i].x);
    ++ref_start[cell_of[i] + 1];
  }
  for (int c = 0; c < kCells; ++c) ref_start[c + 1] += ref_start[c];
  {
    std::vector<int> cursor(ref_start.begin(), ref_start.end() - 1);
    for (int i = 0; i < n; ++i) order[cursor[cell_of[i]]++] = i;
  }
  bool start_ok = true;
  for (int c = 0; c < kCells; ++c) start_ok = start_ok && start[c] == static_cast<unsigned int>(ref_start[c]);

  const double h2 = static_cast<double>(kH) * kH;
  const double poly6 = 315.0 / (64.0 * 3.14159265358979323846 * std::pow(static_cast<double>(kH), 9.0));
  std::vector<double> ref(n);
  for (int i = 0; i < n; ++i) {
    const int cx = cell_coord(pos[i].x), cy = cell_coord(pos[i].y), cz = cell_coord(pos[i].z);
    double sum = 0.0;
    for (int z = std::max(cz - 1, 0); z <= std::min(cz + 1, kGrid - 1); ++z)
      for (int y = std::max(cy - 1, 0); y <= std::min(cy + 1, kGrid - 1); ++y)
        for (int x = std::max(cx - 1, 0); x <= std::min(cx + 1, kGrid - 1); ++x) {
          const int c = (z * kGrid + y) * kGrid + x;
          for (int k = ref_start[c]; k < ref_start[c + 1]; ++k) {
            const float4 q = pos[order[k]];
            const double dx = static_cast<double>(q.x) - pos[i].x;
            const double dy = static_cast<double>(q.y) - pos[i].y;
            const double dz = static_cast<double>(q.z) - pos[i].z;
            const double r2 = dx * dx + dy * dy + dz * dz;
            if (r2 < h2) sum += (h2 - r2) * (h2 - r2) * (h2 - r2);
          }
        }
    ref[i] = static_cast<double>(kMass) * poly6 * sum;
  }
  double err = 0.0;
  for (int i = 0; i < n; ++i) {
    const double e = corpus::rel_err(rho[i], ref[i]);
    if (!(e <= err)) err = e;
  }
  const bool pass = start_ok && err <= 1e-4;

  CORPUS_CHECK(cudaFree(d_pos));
  CORPUS_CHECK(cudaFree(d_sorted));
  CORPUS_CHECK(cudaFree(d_cell_of));
  CORPUS_CHECK(cudaFree(d_count));
  CORPUS_CHECK(cudaFree(d_start));
  CORPUS_CHECK(cudaFree(d_cursor));
  CORPUS_CHECK(cudaFree(d_block_sums));
  CORPUS_CHECK(cudaFree(d_block_offsets));
  CORPUS_CHECK(cudaFree(d_rho));
  return corpus::report("sph_density", pass, err, gpu_ms);
}
