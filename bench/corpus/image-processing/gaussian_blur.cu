// gaussian_blur: separable Gaussian blur (sigma 3, radius 8, 17 taps) of a 2048x2048 float image
// with clamp-to-edge borders: a row pass then a column pass, each staging its tile plus an 8-pixel
// apron in shared memory; the normalised weights live in constant memory.
#include "../include/corpus.cuh"

#include <algorithm>
#include <cmath>

constexpr int W = 2048, H = 2048;
constexpr int R = 8;               // filter radius
constexpr int TAPS = 2 * R + 1;
constexpr float SIGMA = 3.0f;
constexpr int REPS = 50;           // timed blurs (row pass + column pass)
constexpr int RB_X = 32, RB_Y = 8;  // row-pass block
constexpr int CB_X = 32, CB_Y = 16; // column-pass block

__constant__ float c_w[TAPS];

__global__ void blur_rows(const float* __restrict__ in, float* __restrict__ out, int w, int h) {
  __shared__ float tile[RB_Y][RB_X + 2 * R];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x0 = blockIdx.x * RB_X;
  const int y = blockIdx.y * RB_Y + ty;
  const int yc = min(y, h - 1);
  for (int i = tx; i < RB_X + 2 * R; i += RB_X) {
    const int gx = min(max(x0 + i - R, 0), w - 1);
    tile[ty][i] = in[static_cast<size_t>(yc) * w + gx];
  }
  __syncthreads();
  const int x = x0 + tx;
  if (x >= w || y >= h) return;
  float acc = 0.0f;
#pragma unroll
  for (int k = 0; k < TAPS; ++k) acc += c_w[k] * tile[ty][tx + k];
  out[static_cast<size_t>(y) * w + x] = acc;
}

__global__ void blur_cols(const float* __restrict__ in, float* __restrict__ out, int w, int h) {
  __shared__ float tile[CB_Y + 2 * R][CB_X];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x = blockIdx.x * CB_X + tx;
  const int y0 = blockIdx.y * CB_Y;
  const int xc = min(x, w - 1);
  for (int i = ty; i < CB_Y + 2 * R; i += CB_Y) {
    const int gy = min(max(y0 + i - R, 0), h - 1);
    tile[i][tx] = in[static_cast<size_t>(gy) * w + xc];
  }
  __syncthreads();
  const int y = y0 + ty;
  if (x >= w || y >= h) return;
  float acc = 0.0f;
#pragma unroll
  for (int k = 0; k < TAPS; ++k) acc += c_w[k] * tile[ty + k][tx];
  out[static_cast<size_t>(y) * w + x] = acc;
}

int main() {
  const int width = corpus::sized(W, 256), height = corpus::sized(H, 256);  // emulated: 256x256
  const int reps = corpus::reps(REPS);
  const size_t pixels = static_cast<size_t>(width) * height;
  const size_t bytes = pixels * sizeof(float);

  // Normalised Gaussian weights, shared (as floats) by the GPU and the CPU reference.
  float h_w[TAPS];
  double wsum = 0.0;
  for (int k = 0; k < TAPS; ++k) wsum += std::exp(-0.5 * (k - R) * (k - R) / (SIGMA * SIGMA));
  for (int k = 0; k < TAPS; ++k)
    h_w[k] = static_cast<float>(std::exp(-0.5 * (k - R) * (k - R) / (SIGMA * SIGMA)) / wsum);

  // A smooth gradient with uniform noise, values in [0, 1).
  std::vector<float> h_img(pixels);
  corpus::Rng rng(0x6A055B1Eull);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      h_img[static_cast<size_t>(y) * width + x] = 0.5f * (x + y) / (width + height) + 0.5f * rng.uniform();

  float *d_img = nullptr, *d_tmp = nullptr, *d_out = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_img, bytes));
  CORPUS_CHECK(cudaMalloc(&d_tmp, bytes));
  CORPUS_CHECK(cudaMalloc(&d_out, bytes));
  CORPUS_CHECK(cudaMemcpy(d_img, h_img.data(), bytes, cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpyToSymbol(c_w, h_w, sizeof(h_w)));

  const dim3 rblock(RB_X, RB_Y), rgrid((width + RB_X - 1) / RB_X, (height + RB_Y - 1) / RB_Y);
  const dim3 cblock(CB_X, CB_Y), cgrid((width + CB_X - 1) / CB_X, (height + CB_Y - 1) / CB_Y);
  auto blur = [&]() {
    blur_rows<<<rgrid, rblock>>>(d_img, d_tmp, width, height);
    CORPUS_CHECK_LAUNCH();
    blur_cols<<<cgrid, cblock>>>(d_tmp, d_out, width, height);
    CORPUS_CHECK_LAUNCH();
  };

  blur();  // warm-up
  CORPUS_CHECK(cudaDeviceSynchronize());
  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) blur();
  const float gpu_ms = timer.stop();

  std::vector<float> h_out(pixels);
  CORPUS_CHECK(cudaMemcpy(h_out.data(), d_out, bytes, cudaMemcpyDeviceToHost));

  // CPU reference in double: row pass then column pass, clamp-to-edge.
  std::vector<double> tmp(pixels), ref(pixels);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      double acc = 0.0;
      for (int k = 0; k < TAPS; ++k) {
        const int gx = std::min(std::max(x + k - R, 0), width - 1);
        acc += double(h_w[k]) * h_img[static_cast<size_t>(y) * width + gx];
      }
      tmp[static_cast<size_t>(y) * width + x] = acc;
    }
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      double acc = 0.0;
      for (int k = 0; k < TAPS; ++k) {
        const int gy = std::min(std::max(y + k - R, 0), height - 1);
        acc += double(h_w[k]) * tmp[static_cast<size_t>(gy) * width + x];
      }
      ref[static_cast<size_t>(y) * width + x] = acc;
    }
  std::vector<float> want(ref.begin(), ref.end());

  // Positive weights on positive data: each 17-term float pass is within ~17 * 6e-8 relative,
  // so 1e-4 is a wide margin.
  const double err = corpus::max_rel_err(h_out, want, 1e-3);
  const bool pass = err <= 1e-4;

  CORPUS_CHECK(cudaFree(d_img));
  CORPUS_CHECK(cudaFree(d_tmp));
  CORPUS_CHECK(cudaFree(d_out));
  return corpus::report("gaussian_blur", pass, err, gpu_ms);
}
