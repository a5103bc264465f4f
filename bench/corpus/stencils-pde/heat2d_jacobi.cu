// heat2d_jacobi: explicit heat diffusion on a 2048x2048 plate, advanced by Jacobi steps
// (u' = u + r * laplacian(u) with r = 1/4, i.e. each interior point becomes the mean of its four
// neighbours). Each block stages its 32x8 tile plus a one-cell halo in shared memory. The edges
// are Dirichlet boundaries (top edge held hot at 1, the others at 0).
#include "../include/corpus.cuh"

#include <utility>

constexpr int N = 2048;      // grid is N x N
constexpr int STEPS = 32;    // Jacobi steps per solve
constexpr int REPS = 5;      // timed solves, each restarted from the initial state
constexpr int TILE_X = 32;
constexpr int TILE_Y = 8;
static_assert(N % TILE_X == 0 && N % TILE_Y == 0, "grid must tile exactly");

__device__ __forceinline__ float load_clamped(const float* __restrict__ u, int y, int x, int n) {
  y = min(max(y, 0), n - 1);
  x = min(max(x, 0), n - 1);
  return u[y * n + x];
}

__global__ void jacobi_step(const float* __restrict__ u, float* __restrict__ v, int n) {
  __shared__ float tile[TILE_Y + 2][TILE_X + 2];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x = blockIdx.x * TILE_X + tx;
  const int y = blockIdx.y * TILE_Y + ty;

  // Centre cell and the halo (halo cells outside the grid are clamped; they only ever feed
  // boundary cells, which are not updated).
  tile[ty + 1][tx + 1] = load_clamped(u, y, x, n);
  if (tx == 0) tile[ty + 1][0] = load_clamped(u, y, x - 1, n);
  if (tx == TILE_X - 1) tile[ty + 1][TILE_X + 1] = load_clamped(u, y, x + 1, n);
  if (ty == 0) tile[0][tx + 1] = load_clamped(u, y - 1, x, n);
  if (ty == TILE_Y - 1) tile[TILE_Y + 1][tx + 1] = load_clamped(u, y + 1, x, n);
  __syncthreads();

  if (x >= n || y >= n) return;
  float out = tile[ty + 1][tx + 1];
  if (x > 0 && x < n - 1 && y > 0 && y < n - 1) {
    out = 0.25f * ((tile[ty][tx + 1] + tile[ty + 2][tx + 1]) + (tile[ty + 1][tx] + tile[ty + 1][tx + 2]));
  }
  v[y * n + x] = out;
}

int main() {
  const int n = corpus::sized(N, 256), steps = corpus::sized(STEPS, 16);  // emulated: 8 x 32 blocks
  static_assert(256 % TILE_X == 0 && 256 % TILE_Y == 0, "emulated grid must tile exactly");
  const int reps = corpus::reps(REPS);
  const size_t cells = static_cast<size_t>(n) * n;
  const size_t bytes = cells * sizeof(float);

  // Random interior temperatures in [0, 1); top edge hot (1), other edges cold (0).
  std::vector<float> h_init(cells);
  corpus::Rng rng(0x4EA72D01ull);
  for (int y = 0; y < n; ++y) {
    for (int x = 0; x < n; ++x) {
      float t = rng.uniform();
      if (y == 0) t = 1.0f;
      else if (y == n - 1 || x == 0 || x == n - 1) t = 0.0f;
      h_init[static_cast<size_t>(y) * n + x] = t;
    }
  }

  float *d_init = nullptr, *d_a = nullptr, *d_b = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_init, bytes));
  CORPUS_CHECK(cudaMalloc(&d_a, bytes));
  CORPUS_CHECK(cudaMalloc(&d_b, bytes));
  CORPUS_CHECK(cudaMemcpy(d_init, h_init.data(), bytes, cudaMemcpyHostToDevice));

  const dim3 block(TILE_X, TILE_Y);
  const dim3 grid(n / TILE_X, n / TILE_Y);
  float* result = nullptr;
  auto solve = [&]() {
    CORPUS_CHECK(cudaMemcpyAsync(d_a, d_init, bytes, cudaMemcpyDeviceToDevice));
    float* src = d_a;
    float* dst = d_b;
    for (int s = 0; s < steps; ++s) {
      jacobi_step<<<grid, block>>>(src, dst, n);
      CORPUS_CHECK_LAUNCH();
      std::swap(src, dst);
    }
    result = src;  // the last step wrote into what is now src
  };

  solve();  // warm-up
  CORPUS_CHECK(cudaDeviceSynchronize());
  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) solve();
  const float gpu_ms = timer.stop();

  std::vector<float> h_out(cells);
  CORPUS_CHECK(cudaMemcpy(h_out.data(), result, bytes, cudaMemcpyDeviceToHost));

  // CPU reference in double, the same STEPS Jacobi steps.
  std::vector<double> a(h_init.begin(), h_init.end()), b(a);
  for (int s = 0; s < steps; ++s) {
    for (int y = 1; y < n - 1; ++y) {
      const double* up = &a[static_cast<size_t>(y - 1) * n];
      const double* mid = &a[static_cast<size_t>(y) * n];
      const double* dn = &a[static_cast<size_t>(y + 1) * n];
      double* o = &b[static_cast<size_t>(y) * n];
      for (int x = 1; x < n - 1; ++x) o[x] = 0.25 * ((up[x] + dn[x]) + (mid[x - 1] + mid[x + 1]));
    }
    std::swap(a, b);  // boundaries are identical in both buffers
  }
  std::vector<float> want(a.begin(), a.end());

  // Averaging is a contraction, so float rounding stays near STEPS * 6e-8 relative; 1e-4 leaves a
  // wide margin. Floor 1e-3 so cells near the cold edges are compared against the [0,1] scale.
  const double err = corpus::max_rel_err(h_out, want, 1e-3);
  const bool pass = err <= 1e-4;

  CORPUS_CHECK(cudaFree(d_init));
  CORPUS_CHECK(cudaFree(d_a));
  CORPUS_CHECK(cudaFree(d_b));
  return corpus::report("heat2d_jacobi", pass, err, gpu_ms);
}
