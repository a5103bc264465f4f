// poisson_redblack: red-black Gauss-Seidel sweeps for the 2D Poisson problem -lap(u) = f on a
// 1024x1024 grid with u = 0 on the boundary. In grid units the update is
//   u[i][j] = (u[i-1][j] + u[i+1][j] + u[i][j-1] + u[i][j+1] + b[i][j]) / 4,   b = h^2 f,
// first on all red points ((i + j) even), then on all black points. Points of one colour only
// read the other colour, so each half-sweep is one race-free kernel. After the sweeps a
// shared-memory reduction computes the squared residual norm.
#include "../include/corpus.cuh"

constexpr int N = 1024;
constexpr int SWEEPS = 100;    // red + black half-sweeps per solve
constexpr int REPS = 3;        // timed solves, each restarted from u = 0
constexpr int RB_X = 32, RB_Y = 8;
constexpr int RES_BLOCK = 256;
constexpr int RES_GRID = 256;

__global__ void rb_half_sweep(float* u, const float* __restrict__ b, int n, int color) {
  const int i = blockIdx.y * blockDim.y + threadIdx.y;                       // row
  const int j = 2 * (blockIdx.x * blockDim.x + threadIdx.x) + ((i + color) & 1);  // column of this colour
  if (i < 1 || i >= n - 1 || j < 1 || j >= n - 1) return;
  const int k = i * n + j;
  u[k] = 0.25f * ((u[k - n] + u[k + n]) + (u[k - 1] + u[k + 1]) + b[k]);
}

// Per-block partial sums of r^2, r = b + (sum of neighbours) - 4u over interior points.
__global__ void residual_sq(const float* __restrict__ u, const float* __restrict__ b, int n,
                            float* __restrict__ partial) {
  extern __shared__ float sdata[];
  const int tid = threadIdx.x;
  float acc = 0.0f;
  const int total = n * n;
  for (int k = blockIdx.x * blockDim.x + tid; k < total; k += gridDim.x * blockDim.x) {
    const int i = k / n, j = k % n;
    if (i > 0 && i < n - 1 && j > 0 && j < n - 1) {
      const float r = b[k] + (u[k - n] + u[k + n]) + (u[k - 1] + u[k + 1]) - 4.0f * u[k];
      acc += r * r;
    }
  }
  sdata[tid] = acc;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {  // blockDim.x is a power of two
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = sdata[0];
}

int main() {
  const int n = corpus::sized(N, 128), sweeps = corpus::sized(SWEEPS, 50);  // emulated: 2 x 16 blocks
  const int reps = corpus::reps(REPS);
  const size_t cells = static_cast<size_t>(n) * n;
  const size_t bytes = cells * sizeof(float);

  // Right-hand side b = h^2 f, positive so the solution is positive everywhere inside.
  std::vector<float> h_b(cells);
  corpus::Rng rng(0x9015504Eull);
  for (auto& v : h_b) v = rng.uniform(0.5f, 1.5f);

  float *d_u = nullptr, *d_b = nullptr, *d_partial = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_u, bytes));
  CORPUS_CHECK(cudaMalloc(&d_b, bytes));
  CORPUS_CHECK(cudaMalloc(&d_partial, RES_GRID * sizeof(float)));
  CORPUS_CHECK(cudaMemcpy(d_b, h_b.data(), bytes, cudaMemcpyHostToDevice));

  const dim3 block(RB_X, RB_Y);
  const dim3 grid((n / 2 + RB_X - 1) / RB_X, (n + RB_Y - 1) / RB_Y);
  auto solve = [&]() {
    CORPUS_CHECK(cudaMemsetAsync(d_u, 0, bytes));
    for (int s = 0; s < sweeps; ++s) {
      rb_half_sweep<<<grid, block>>>(d_u, d_b, n, 0);  // red
      CORPUS_CHECK_LAUNCH();
      rb_half_sweep<<<grid, block>>>(d_u, d_b, n, 1);  // black
      CORPUS_CHECK_LAUNCH();
    }
  };

  solve();  // warm-up
  CORPUS_CHECK(cudaDeviceSynchronize());
  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) solve();
  const float gpu_ms = timer.stop();

  residual_sq<<<RES_GRID, RES_BLOCK, RES_BLOCK * sizeof(float)>>>(d_u, d_b, n, d_partial);
  CORPUS_CHECK_LAUNCH();
  std::vector<float> h_u(cells), h_partial(RES_GRID);
  CORPUS_CHECK(cudaMemcpy(h_u.data(), d_u, bytes, cudaMemcpyDeviceToHost));
  CORPUS_CHECK(cudaMemcpy(h_partial.data(), d_partial, RES_GRID * sizeof(float), cudaMemcpyDeviceToHost));
  double gpu_res = 0.0;
  for (float p : h_partial) gpu_res += p;

  // CPU reference: the same red-black sweeps in double.
  std::vector<double> u(cells, 0.0);
  for (int s = 0; s < sweeps; ++s)
    for (int color = 0; color < 2; ++color)
      for (int i = 1; i < n - 1; ++i)
        for (int j = 1 + ((i + 1 + color) & 1); j < n - 1; j += 2) {
          const size_t k = static_cast<size_t>(i) * n + j;
          u[k] = 0.25 * ((u[k - n] + u[k + n]) + (u[k - 1] + u[k + 1]) + double(h_b[k]));
        }
  std::vector<float> want(u.begin(), u.end());

  // Residual of the GPU's own solution in double, to check the reduction.
  double cpu_res = 0.0;
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < n - 1; ++j) {
      const size_t k = static_cast<size_t>(i) * n + j;
      const double r = double(h_b[k]) + (double(h_u[k - n]) + h_u[k + n]) + (double(h_u[k - 1]) + h_u[k + 1]) -
                       4.0 * h_u[k];
      cpu_res += r * r;
    }

  // Gauss-Seidel is a contraction, so float rounding in u stays ~1e-6 relative: 1e-4 tolerance.
  // The residual sum has ~1e6 float terms summed per thread/tree (~1e-6 relative) plus float
  // cancellation in r (u ~ 1e2, r ~ 1): 1e-3.
  const double err_u = corpus::max_rel_err(h_u, want, 1e-3);
  const double err_r = corpus::rel_err(gpu_res, cpu_res);
  const bool pass = err_u <= 1e-4 && err_r <= 1e-3;
  std::printf("residual^2 gpu=%.6e cpu=%.6e\n", gpu_res, cpu_res);

  CORPUS_CHECK(cudaFree(d_u));
  CORPUS_CHECK(cudaFree(d_b));
  CORPUS_CHECK(cudaFree(d_partial));
  return corpus::report("poisson_redblack", pass, err_u > err_r ? err_u : err_r, gpu_ms);
}
