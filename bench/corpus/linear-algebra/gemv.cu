// Dense matrix-vector product y = A x, A row-major (8192 x 2048 floats, 64 MiB).
// One warp per row: the lanes stride along the row (coalesced), each keeps a private partial
// sum, and the warp combines them with shuffles. A block of 256 threads handles
// 256 / warpSize rows; the warp size is taken from the device, never assumed to be 32.
#include "../include/corpus.cuh"

constexpr unsigned FULL_MASK = 0xffffffffu;

__device__ __forceinline__ float warp_sum(float v) {
  for (int offset = warpSize / 2; offset > 0; offset >>= 1) v += __shfl_down_sync(FULL_MASK, v, offset);
  return v;  // lane 0 holds the sum of the warp
}

__global__ void gemv_warp_per_row(const float* __restrict__ A, const float* __restrict__ x,
                                  float* __restrict__ y, int rows, int cols) {
  const int lane = threadIdx.x % warpSize;
  const int warps_per_block = blockDim.x / warpSize;
  const int row = blockIdx.x * warps_per_block + threadIdx.x / warpSize;
  if (row >= rows) return;  // whole warps leave together: row is uniform across a warp

  const float* a = A + (size_t)row * cols;
  float partial = 0.0f;
  for (int c = lane; c < cols; c += warpSize) partial = fmaf(a[c], __ldg(&x[c]), partial);
  partial = warp_sum(partial);
  if (lane == 0) y[row] = partial;
}

int main() {
  const int rows = corpus::sized(8192, 2048), cols = corpus::sized(2048, 1024);
  const int threads = 256;
  const int reps = corpus::reps(100);  // ~20 us per call (64 MiB read) on an H200

  int warp = 0;
  CORPUS_CHECK(cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, 0));
  const int rows_per_block = threads / warp;
  const int blocks = (rows + rows_per_block - 1) / rows_per_block;

  corpus::Rng rng(0x9e77ull);
  std::vector<float> hA((size_t)rows * cols), hx(cols), hy(rows, 0.0f);
  for (auto& v : hA) v = rng.uniform(-1.0f, 1.0f);
  for (auto& v : hx) v = rng.uniform(-1.0f, 1.0f);

  float *dA = nullptr, *dx = nullptr, *dy = nullptr;
  CORPUS_CHECK(cudaMalloc(&dA, hA.size() * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&dx, hx.size() * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&dy, hy.size() * sizeof(float)));
  CORPUS_CHECK(cudaMemcpy(dA, hA.data(), hA.size() * sizeof(float), cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(dx, hx.data(), hx.size() * sizeof(float), cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemset(dy, 0, hy.size() * sizeof(float)));

  gemv_warp_per_row<<<blocks, threads>>>(dA, dx, dy, rows, cols);  // warm-up
  CORPUS_CHECK_LAUNCH();
  CORPUS_CHECK(cudaDeviceSynchronize());

  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) {
    gemv_warp_per_row<<<blocks, threads>>>(dA, dx, dy, rows, cols);
    CORPUS_CHECK_LAUNCH();
  }
  const float gpu_ms = timer.stop();
  CORPUS_CHECK(cudaMemcpy(hy.data(), dy, hy.size() * sizeof(float), cudaMemcpyDeviceToHost));

  // CPU reference in double.
  std::vector<double> ref(rows);
  for (int r = 0; r < rows; ++r) {
    double s = 0.0;
    const float* a = &hA[(size_t)r * cols];
    for (int c = 0; c < cols; ++c) s += (double)a[c] * (double)hx[c];
    ref[r] = s;
  }

  // Each y is a 2048-term dot product of values in [-1, 1] (typical magnitude ~15). The GPU
  // sums 64 terms per lane in float and then a 32-way tree: ~1e-5 absolute error, a few 1e-5
  // at worst. The floor of 1.0 compares near-zero results absolutely; 1e-3 leaves a margin.
  double err = 0.0;
  for (int r = 0; r < rows; ++r) {
    const double e = corpus::rel_err(hy[r], ref[r], 1.0);
    if (!(e <= err)) err = e;
  }
  const bool pass = err <= 1e-3;

  CORPUS_CHECK(cudaFree(dA));
  CORPUS_CHECK(cudaFree(dx));
  CORPUS_CHECK(cudaFree(dy));
  return corpus::report("gemv", pass, err, gpu_ms);
}
