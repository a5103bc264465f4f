// LayerNorm forward, y = (x - mean) / sqrt(var + eps) * gamma + beta, over each row of an
// 8192 x 1024 float matrix. One warp per row (grid-stride over rows by global warp index):
// a first pass for the mean, a second over the row (from cache) for the centred variance,
// each finished with a __shfl_xor_sync butterfly so every lane holds the result; a third pass
// writes y. Mean and rstd are also written out, as training frameworks do. Lane/warp indices
// come from warpSize. CPU reference in double.
#include "../include/corpus.cuh"

#include <algorithm>

namespace {

constexpr int kRows = 8192;
constexpr int kCols = 1024;
constexpr float kEps = 1e-5f;
constexpr int kThreads = 256;
constexpr int kReps = 30;

__device__ __forceinline__ float warp_allsum(float v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffff, v, offset);
  return v;
}

__global__ void layernorm_kernel(const float* __restrict__ x, const float* __restrict__ gamma,
                                 const float* __restrict__ beta, float* __restrict__ y,
                                 float* __restrict__ mean_out, float* __restrict__ rstd_out,
                                 int rows, int cols, float eps) {
  const int lane = threadIdx.x % warpSize;
  const int warps_per_block = blockDim.x / warpSize;
  const int total_warps = gridDim.x * warps_per_block;
  for (int r = blockIdx.x * warps_per_block + threadIdx.x / warpSize; r < rows; r += total_warps) {
    const float* xr = x + static_cast<size_t>(r) * cols;
    float s = 0.0f;
    for (int j = lane; j < cols; j += warpSize) s += xr[j];
    const float mean = warp_allsum(s) / cols;
    float v = 0.0f;
    for (int j = lane; j < cols; j += warpSize) {
      const float d = xr[j] - mean;
      v += d * d;
    }
    const float rstd = rsqrtf(warp_allsum(v) / cols + eps);
    float* yr = y + static_cast<size_t>(r) * cols;
    for (int j = lane; j < cols; j += warpSize) yr[j] = (xr[j] - mean) * rstd * gamma[j] + beta[j];
    if (lane == 0) {
      mean_out[r] = mean;
      rstd_out[r] = rstd;
    }
  }
}

}  // namespace

int main() {
  const int rows = corpus::sized(kRows, 512);
  const int reps = corpus::reps(kReps);
  const size_t n = static_cast<size_t>(rows) * kCols;
  std::vector<float> h_x(n), h_gamma(kCols), h_beta(kCols);
  corpus::Rng rng(0x1A7E);
  for (int r = 0; r < rows; ++r) {
    const float offset = rng.uniform(-4.0f, 4.0f);
    const float scale = rng.uniform(0.1f, 3.0f);
    for (int c = 0; c < kCols; ++c) h_x[static_cast<size_t>(r) * kCols + c] = offset + scale * rng.uniform(-1.0f, 1.0f);
  }
  for (int c = 0; c < kCols; ++c) {
    h_gamma[c] = rng.uniform(0.5f, 1.5f);
    h_beta[c] = rng.uniform(-0.5f, 0.5f);
  }

  float *d_x, *d_gamma, *d_beta, *d_y, *d_mean, *d_rstd;
  CORPUS_CHECK(cudaMalloc(&d_x, n * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&d_y, n * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&d_gamma, kCols * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&d_beta, kCols * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&d_mean, rows * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&d_rstd, rows * sizeof(float)));
  CORPUS_CHECK(cudaMemcpy(d_x, h_x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(d_gamma, h_gamma.data(), kCols * sizeof(float), cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(d_beta, h_beta.data(), kCols * sizeof(float), cudaMemcpyHostToDevice));

  // 8 warps each (with 32-wide warps): one row per warp per sweep (emulated: two sweeps).
  const int blocks = corpus::sized(1024, 32);
  auto launch = [&]() {
    layernorm_kernel<<<blocks, kThreads>>>(d_x, d_gamma, d_beta, d_y, d_mean, d_rstd, rows, kCols, kEps);
    CORPUS_CHECK_LAUNCH();
  };
  launch();  // warm-up
  CORPUS_CHECK(cudaDeviceSynchronize());

  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) launch();
  const float gpu_ms = timer.stop();

  std::vector<float> h_y(n), h_mean(rows), h_rstd(rows);
  CORPUS_CHECK(cudaMemcpy(h_y.data(), d_y, n * sizeof(float), cudaMemcpyDeviceToHost));
  CORPUS_CHECK(cudaMemcpy(h_mean.data(), d_mean, rows * sizeof(float), cudaMemcpyDeviceToHost));
  CORPUS_CHECK(cudaMemcpy(h_rstd.data(), d_rstd, rows * sizeof(float), cudaMemcpyDeviceToHost));

  std::vector<double> want(n), got(h_y.begin(), h_y.end());
  std::vector<double> want_mean(rows), want_rstd(rows);
  for (int r = 0; r < rows; ++r) {
    const float* xr = &h_x[static_cast<size_t>(r) * kCols];
    double s = 0.0;
    for (int c = 0; c < kCols; ++c) s += xr[c];
    const double mean = s / kCols;
    double v = 0.0;
    for (int c = 0; c < kCols; ++c) v += (xr[c] - mean) * (xr[c] - mean);
    const double rstd = 1.0 / std::sqrt(v / kCols + kEps);
    want_mean[r] = mean;
    want_rstd[r] = rstd;
    for (int c = 0; c < kCols; ++c)
      want[static_cast<size_t>(r) * kCols + c] = (xr[c] - mean) * rstd * h_gamma[c] + h_beta[c];
  }
  // Tolerance 1e-4 relative with floor 1.0 (outputs are O(1), so this is ~1e-4 absolute near
  // zero): float sums of 1024 terms in strided + butterfly order and rsqrtf (<= 2 ulp) give
  // ~1e-6 relative error, amplified at most ~|x - mean| / std ~ 2 in y. The mean is compared
  // with the same floor (it can be near zero); rstd is compared relatively.
  const double err_y = corpus::max_rel_err(got, want, 1.0);
  const double err_mean = corpus::max_rel_err(std::vector<double>(h_mean.begin(), h_mean.end()), want_mean, 1.0);
  const double err_rstd = corpus::max_rel_err(std::vector<double>(h_rstd.begin(), h_rstd.end()), want_rstd, 1e-6);
  const double err = std::max(err_y, std::max(err_mean, err_rstd));

  CORPUS_CHECK(cudaFree(d_x));
  CORPUS_CHECK(cudaFree(d_y));
  CORPUS_CHECK(cudaFree(d_gamma));
  CORPUS_CHECK(cudaFree(d_beta));
  CORPUS_CHECK(cudaFree(d_mean));
  CORPUS_CHECK(cudaFree(d_rstd));
  return corpus::report("layernorm", err < 1e-4, err, gpu_ms);
}
