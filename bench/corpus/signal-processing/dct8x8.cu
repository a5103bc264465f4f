// dct8x8: JPEG-style forward 8x8 DCT-II of a 2048x2048 image: pixels level-shifted by -128, each
// 8x8 block transformed as F = C f C^T with the orthonormal DCT matrix
// C[u][x] = c(u)/2 * cos((2x + 1) u pi / 16), c(0) = 1/sqrt(2), c(u > 0) = 1. A 32x8 thread block
// handles four neighbouring 8x8 blocks: a row pass and a column pass through shared memory.
// Coefficient (v, u) of each block is stored where pixel (v, u) of the block was.
#include "../include/corpus.cuh"

#include <cmath>

constexpr int W = 2048, H = 2048;
constexpr int TB_X = 32, TB_Y = 8;   // four 8x8 blocks per thread block
constexpr int REPS = 120;
static_assert(W % TB_X == 0 && H % TB_Y == 0, "image must tile exactly");

__constant__ float c_dct[8][8];

__global__ void dct8x8_forward(const float* __restrict__ img, float* __restrict__ coef, int w) {
  __shared__ float cm[8][8];
  __shared__ float pix[TB_Y][TB_X + 1];   // +1 column: fewer bank conflicts
  __shared__ float rows[TB_Y][TB_X + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int q = tx / 8;        // which 8x8 block of the four
  const int u = tx % 8;        // horizontal frequency this thread computes
  const size_t g = static_cast<size_t>(blockIdx.y * TB_Y + ty) * w + blockIdx.x * TB_X + tx;

  const int lin = ty * TB_X + tx;
  if (lin < 64) cm[lin / 8][lin % 8] = c_dct[lin / 8][lin % 8];
  pix[ty][tx] = img[g] - 128.0f;
  __syncthreads();

  // Row pass: rows[y][8q + u] = sum_x C[u][x] * f[y][x]
  float acc = 0.0f;
#pragma unroll
  for (int x = 0; x < 8; ++x) acc += cm[u][x] * pix[ty][q * 8 + x];
  rows[ty][tx] = acc;
  __syncthreads();

  // Column pass: F[v][u] = sum_y C[v][y] * rows[y][u], v = ty
  acc = 0.0f;
#pragma unroll
  for (int y = 0; y < 8; ++y) acc += cm[ty][y] * rows[y][tx];
  coef[g] = acc;
}

int main() {
  const int width = corpus::sized(W, 256), height = corpus::sized(H, 256);  // emulated: 8 x 32 blocks
  static_assert(256 % TB_X == 0 && 256 % TB_Y == 0, "emulated image must tile exactly");
  const int reps = corpus::reps(REPS);
  const size_t pixels = static_cast<size_t>(width) * height;
  const size_t bytes = pixels * sizeof(float);

  // DCT matrix in double, rounded to float for the GPU.
  double cd[8][8];
  float h_c[8][8];
  for (int u = 0; u < 8; ++u)
    for (int x = 0; x < 8; ++x) {
      cd[u][x] = (u == 0 ? std::sqrt(0.5) : 1.0) * 0.5 * std::cos((2 * x + 1) * u * M_PI / 16.0);
      h_c[u][x] = static_cast<float>(cd[u][x]);
    }

  // An 8-bit-valued photo stand-in: smooth shading, a few hard edges, sensor noise.
  std::vector<float> h_img(pixels);
  std::vector<double> sx(width), cy(height);
  for (int x = 0; x < width; ++x) sx[x] = std::sin(x * 0.011);
  for (int y = 0; y < height; ++y) cy[y] = std::cos(y * 0.017);
  corpus::Rng rng(0xDC788ull);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      double v = 128.0 + 90.0 * sx[x] * cy[y];
      if (((x / 200) + (y / 150)) % 5 == 0) v = 240.0 - 0.02 * x;
      v += rng.uniform(-12.0f, 12.0f);
      h_img[static_cast<size_t>(y) * width + x] = static_cast<float>(std::lround(std::fmin(std::fmax(v, 0.0), 255.0)));
    }

  float *d_img = nullptr, *d_coef = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_img, bytes));
  CORPUS_CHECK(cudaMalloc(&d_coef, bytes));
  CORPUS_CHECK(cudaMemcpy(d_img, h_img.data(), bytes, cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpyToSymbol(c_dct, h_c, sizeof(h_c)));

  const dim3 block(TB_X, TB_Y), grid(width / TB_X, height / TB_Y);
  dct8x8_forward<<<grid, block>>>(d_img, d_coef, width);  // warm-up
  CORPUS_CHECK_LAUNCH();
  CORPUS_CHECK(cudaDeviceSynchronize());
  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) {
    dct8x8_forward<<<grid, block>>>(d_img, d_coef, width);
    CORPUS_CHECK_LAUNCH();
  }
  const float gpu_ms = timer.stop();

  std::vector<float> h_coef(pixels);
  CORPUS_CHECK(cudaMemcpy(h_coef.data(), d_coef, bytes, cudaMemcpyDeviceToHost));

  // CPU reference: separable DCT-II in double with the double matrix.
  std::vector<float> want(pixels);
  for (int by = 0; by < height; by += 8)
    for (int bx = 0; bx < width; bx += 8) {
      double f[8][8], t[8][8];
      for (int y = 0; y < 8; ++y)
        for (int x = 0; x < 8; ++x) f[y][x] = h_img[static_cast<size_t>(by + y) * width + bx + x] - 128.0;
      for (int y = 0; y < 8; ++y)
        for (int u = 0; u < 8; ++u) {
          double a = 0.0;
          for (int x = 0; x < 8; ++x) a += cd[u][x] * f[y][x];
          t[y][u] = a;
        }
      for (int v = 0; v < 8; ++v)
        for (int u = 0; u < 8; ++u) {
          double a = 0.0;
          for (int y = 0; y < 8; ++y) a += cd[v][y] * t[y][u];
          want[static_cast<size_t>(by + v) * width + bx + u] = static_cast<float>(a);
        }
    }

  // DC terms reach ~1000 while many AC terms are near 0, so errors are measured against a floor of
  // 1.0 (one quantisation step of a fine JPEG table). Two 8-term float passes plus float matrix
  // entries give absolute errors up to ~1e-4 on this scale; tolerance 1e-3.
  const double err = corpus::max_rel_err(h_coef, want, 1.0);
  const bool pass = err <= 1e-3;

  CORPUS_CHECK(cudaFree(d_img));
  CORPUS_CHECK(cudaFree(d_coef));
  return corpus::report("dct8x8", pass, err, gpu_ms);
}
