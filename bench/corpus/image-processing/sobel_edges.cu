// sobel_edges: Sobel gradient magnitude sqrt(gx^2 + gy^2) of a 4096x4096 8-bit grayscale image,
// clamp-to-edge borders. Each 32x8 block stages its pixels plus a one-pixel apron as bytes in
// shared memory; the gradients are exact integers, only the square root rounds.
#include "../include/corpus.cuh"

#include <algorithm>
#include <cmath>

constexpr int W = 4096, H = 4096;
constexpr int BX = 32, BY = 8;
constexpr int REPS = 40;

__global__ void sobel(const unsigned char* __restrict__ img, float* __restrict__ mag, int w, int h) {
  __shared__ unsigned char tile[BY + 2][BX + 2];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int bx0 = blockIdx.x * BX, by0 = blockIdx.y * BY;
  // Cooperative load of the (BY+2) x (BX+2) tile, clamped at the image borders.
  for (int t = ty * BX + tx; t < (BY + 2) * (BX + 2); t += BX * BY) {
    const int ly = t / (BX + 2), lx = t % (BX + 2);
    const int gx = min(max(bx0 + lx - 1, 0), w - 1);
    const int gy = min(max(by0 + ly - 1, 0), h - 1);
    tile[ly][lx] = img[static_cast<size_t>(gy) * w + gx];
  }
  __syncthreads();

  const int x = bx0 + tx, y = by0 + ty;
  if (x >= w || y >= h) return;
  const int p00 = tile[ty][tx], p01 = tile[ty][tx + 1], p02 = tile[ty][tx + 2];
  const int p10 = tile[ty + 1][tx], p12 = tile[ty + 1][tx + 2];
  const int p20 = tile[ty + 2][tx], p21 = tile[ty + 2][tx + 1], p22 = tile[ty + 2][tx + 2];
  const int gx = (p02 + 2 * p12 + p22) - (p00 + 2 * p10 + p20);
  const int gy = (p20 + 2 * p21 + p22) - (p00 + 2 * p01 + p02);
  mag[static_cast<size_t>(y) * w + x] = sqrtf(static_cast<float>(gx * gx + gy * gy));
}

int main() {
  const int width = corpus::sized(W, 256), height = corpus::sized(H, 256);  // emulated: 256x256
  const int reps = corpus::reps(REPS);
  const size_t pixels = static_cast<size_t>(width) * height;

  // Checkerboard of 64-pixel squares, a diagonal ramp and noise: plenty of edges of all strengths.
  std::vector<unsigned char> h_img(pixels);
  corpus::Rng rng(0x50BE1EDull);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      int v = (((x >> 6) ^ (y >> 6)) & 1) ? 170 : 40;
      v += (x + y) * 40 / (width + height) + static_cast<int>(rng.below(40));
      h_img[static_cast<size_t>(y) * width + x] = static_cast<unsigned char>(std::min(v, 255));
    }

  unsigned char* d_img = nullptr;
  float* d_mag = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_img, pixels));
  CORPUS_CHECK(cudaMalloc(&d_mag, pixels * sizeof(float)));
  CORPUS_CHECK(cudaMemcpy(d_img, h_img.data(), pixels, cudaMemcpyHostToDevice));

  const dim3 block(BX, BY), grid((width + BX - 1) / BX, (height + BY - 1) / BY);
  sobel<<<grid, block>>>(d_img, d_mag, width, height);  // warm-up
  CORPUS_CHECK_LAUNCH();
  CORPUS_CHECK(cudaDeviceSynchronize());
  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) {
    sobel<<<grid, block>>>(d_img, d_mag, width, height);
    CORPUS_CHECK_LAUNCH();
  }
  const float gpu_ms = timer.stop();

  std::vector<float> h_mag(pixels);
  CORPUS_CHECK(cudaMemcpy(h_mag.data(), d_mag, pixels * sizeof(float), cudaMemcpyDeviceToHost));

  // CPU reference: exact integer gradients, double square root.
  std::vector<float> want(pixels);
  auto px = [&](int y, int x) {
    y = std::min(std::max(y, 0), height - 1);
    x = std::min(std::max(x, 0), width - 1);
    return static_cast<int>(h_img[static_cast<size_t>(y) * width + x]);
  };
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      const int gx = (px(y - 1, x + 1) + 2 * px(y, x + 1) + px(y + 1, x + 1)) -
                     (px(y - 1, x - 1) + 2 * px(y, x - 1) + px(y + 1, x - 1));
      const int gy = (px(y + 1, x - 1) + 2 * px(y + 1, x) + px(y + 1, x + 1)) -
                     (px(y - 1, x - 1) + 2 * px(y - 1, x) + px(y - 1, x + 1));
      want[static_cast<size_t>(y) * width + x] = static_cast<float>(std::sqrt(double(gx * gx + gy * gy)));
    }

  // gx^2 + gy^2 <= 2 * 1020^2 is exact in float; only sqrtf rounds (<= 1 ulp, ~1.2e-7 relative,
  // even where it is not correctly rounded). Floor 1.0: magnitudes are >= 1 or exactly 0.
  const double err = corpus::max_rel_err(h_mag, want, 1.0);
  const bool pass = err <= 1e-6;

  CORPUS_CHECK(cudaFree(d_img));
  CORPUS_CHECK(cudaFree(d_mag));
  return corpus::report("sobel_edges", pass, err, gpu_ms);
}
