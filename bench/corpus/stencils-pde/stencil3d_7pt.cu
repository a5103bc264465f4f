// stencil3d_7pt: a 7-point 3D stencil (out = c0*u + c1*(six face neighbours)) applied STEPS
// times to a 256^3 grid, boundary cells copied through. 2.5D blocking: each block owns a 32x8
// column of the x-y plane and a chunk of z; it keeps the z-1 / z / z+1 values of its own column in
// registers and stages the current x-y plane (with a one-cell halo) in shared memory.
#include "../include/corpus.cuh"

#include <algorithm>
#include <utility>

constexpr int NX = 256, NY = 256, NZ = 256;
constexpr int BX = 32, BY = 8;   // block = x-y tile
constexpr int ZCHUNK = 32;       // z planes per block
constexpr int STEPS = 3;         // stencil applications per run
constexpr int REPS = 10;         // timed runs, each restarted from the input
constexpr float C0 = 0.4f, C1 = 0.1f;
static_assert(NX % BX == 0 && NY % BY == 0 && NZ % ZCHUNK == 0, "grid must tile exactly");

__global__ void stencil7(const float* __restrict__ in, float* __restrict__ out, int nx, int ny, int nz) {
  __shared__ float tile[BY + 2][BX + 2];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x = blockIdx.x * BX + tx;
  const int y = blockIdx.y * BY + ty;
  const int z0 = blockIdx.z * ZCHUNK;
  const int z1 = min(z0 + ZCHUNK, nz);
  const bool inside = x < nx && y < ny;
  const bool interior_xy = x > 0 && x < nx - 1 && y > 0 && y < ny - 1;
  const size_t plane = static_cast<size_t>(nx) * ny;
  const size_t col = static_cast<size_t>(y) * nx + x;

  // Register queue along z for this thread's column.
  float below = (inside && z0 > 0) ? in[(z0 - 1) * plane + col] : 0.0f;
  float cur = inside ? in[z0 * plane + col] : 0.0f;
  float above = (inside && z0 + 1 < nz) ? in[(z0 + 1) * plane + col] : 0.0f;

  for (int z = z0; z < z1; ++z) {
    const float* p = in + z * plane;
    __syncthreads();  // everyone is done reading the previous plane's tile
    tile[ty + 1][tx + 1] = cur;
    if (tx == 0) tile[ty + 1][0] = (x > 0 && y < ny) ? p[col - 1] : 0.0f;
    if (tx == BX - 1) tile[ty + 1][BX + 1] = (x + 1 < nx && y < ny) ? p[col + 1] : 0.0f;
    if (ty == 0) tile[0][tx + 1] = (y > 0 && x < nx) ? p[col - nx] : 0.0f;
    if (ty == BY - 1) tile[BY + 1][tx + 1] = (y + 1 < ny && x < nx) ? p[col + nx] : 0.0f;
    __syncthreads();

    if (inside) {
      float r = cur;
      if (interior_xy && z > 0 && z < nz - 1) {
        r = C0 * cur + C1 * ((tile[ty + 1][tx] + tile[ty + 1][tx + 2]) +
                             (tile[ty][tx + 1] + tile[ty + 2][tx + 1]) + (below + above));
      }
      out[z * plane + col] = r;
    }
    below = cur;
    cur = above;
    above = (inside && z + 2 < nz) ? in[(z + 2) * plane + col] : 0.0f;
  }
}

int main() {
  // Emulated: 64^3, 2 x 8 x 2 blocks (still two z chunks).
  const int nx = corpus::sized(NX, 64), ny = corpus::sized(NY, 64), nz = corpus::sized(NZ, 64);
  static_assert(64 % BX == 0 && 64 % BY == 0 && 64 % ZCHUNK == 0, "emulated grid must tile exactly");
  const int reps = corpus::reps(REPS);
  const size_t cells = static_cast<size_t>(nx) * ny * nz;
  const size_t bytes = cells * sizeof(float);

  std::vector<float> h_in(cells);
  corpus::Rng rng(0x57E3C703ull);
  for (auto& v : h_in) v = rng.uniform(0.1f, 1.0f);

  float *d_in = nullptr, *d_a = nullptr, *d_b = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_in, bytes));
  CORPUS_CHECK(cudaMalloc(&d_a, bytes));
  CORPUS_CHECK(cudaMalloc(&d_b, bytes));
  CORPUS_CHECK(cudaMemcpy(d_in, h_in.data(), bytes, cudaMemcpyHostToDevice));

  const dim3 block(BX, BY);
  const dim3 grid(nx / BX, ny / BY, nz / ZCHUNK);
  float* result = nullptr;
  auto run = [&]() {
    CORPUS_CHECK(cudaMemcpyAsync(d_a, d_in, bytes, cudaMemcpyDeviceToDevice));
    float* src = d_a;
    float* dst = d_b;
    for (int s = 0; s < STEPS; ++s) {
      stencil7<<<grid, block>>>(src, dst, nx, ny, nz);
      CORPUS_CHECK_LAUNCH();
      std::swap(src, dst);
    }
    result = src;
  };

  run();  // warm-up
  CORPUS_CHECK(cudaDeviceSynchronize());
  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) run();
  const float gpu_ms = timer.stop();

  std::vector<float> h_out(cells);
  CORPUS_CHECK(cudaMemcpy(h_out.data(), result, bytes, cudaMemcpyDeviceToHost));

  // CPU reference in double.
  std::vector<double> a(h_in.begin(), h_in.end()), b(a);
  const size_t plane = static_cast<size_t>(nx) * ny;
  for (int s = 0; s < STEPS; ++s) {
    for (int z = 1; z < nz - 1; ++z)
      for (int y = 1; y < ny - 1; ++y)
        for (int x = 1; x < nx - 1; ++x) {
          const size_t i = z * plane + static_cast<size_t>(y) * nx + x;
          b[i] = double(C0) * a[i] +
                 double(C1) * (a[i - 1] + a[i + 1] + a[i - nx] + a[i + nx] + a[i - plane] + a[i + plane]);
        }
    std::swap(a, b);  // boundary cells are equal in both buffers
  }
  std::vector<float> want(a.begin(), a.end());

  // Positive weights summing to 1 on positive data: float rounding stays near STEPS * 1e-7
  // relative; 1e-4 is a wide margin.
  const double err = corpus::max_rel_err(h_out, want, 1e-3);
  const bool pass = err <= 1e-4;

  CORPUS_CHECK(cudaFree(d_in));
  CORPUS_CHECK(cudaFree(d_a));
  CORPUS_CHECK(cudaFree(d_b));
  return corpus::report("stencil3d_7pt", pass, err, gpu_ms);
}
