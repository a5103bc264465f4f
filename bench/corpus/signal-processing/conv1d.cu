// conv1d: direct 1D convolution of a 2M-sample signal with a 63-tap windowed-sinc low-pass
// filter held in constant memory (every thread reads the same tap at once: a broadcast). Each block
// stages its 256 samples plus a 31-sample halo on each side in shared memory; samples outside the
// signal are zero.
#include "../include/corpus.cuh"

#include <algorithm>
#include <cmath>

constexpr int N = 1 << 21;       // samples
constexpr int TAPS = 63;
constexpr int R = TAPS / 2;      // 31
constexpr int BLOCK = 256;
constexpr int REPS = 200;

__constant__ float c_h[TAPS];

// y[i] = sum_k h[k] * x[i + R - k]  (true convolution, centred)
template <int BS>
__global__ void conv1d(const float* __restrict__ x, float* __restrict__ y, int n) {
  __shared__ float s[BS + 2 * R];
  const int base = blockIdx.x * BS;
  for (int t = threadIdx.x; t < BS + 2 * R; t += BS) {
    const int g = base + t - R;
    s[t] = (g >= 0 && g < n) ? x[g] : 0.0f;
  }
  __syncthreads();
  const int i = base + threadIdx.x;
  if (i >= n) return;
  float acc = 0.0f;
#pragma unroll
  for (int k = 0; k < TAPS; ++k) acc += c_h[k] * s[threadIdx.x + 2 * R - k];  // x[i + R - k]
  y[i] = acc;
}

int main() {
  const int n = corpus::sized(N, 1 << 15);  // emulated: 128 blocks
  const int reps = corpus::reps(REPS);
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);

  // Hamming-windowed sinc, cutoff 0.2 cycles/sample, normalised to unit DC gain.
  float h_h[TAPS];
  double hsum = 0.0;
  std::vector<double> hd(TAPS);
  for (int k = 0; k < TAPS; ++k) {
    const double m = k - R;
    const double sinc = (m == 0) ? 2.0 * 0.2 : std::sin(2.0 * M_PI * 0.2 * m) / (M_PI * m);
    hd[k] = sinc * (0.54 - 0.46 * std::cos(2.0 * M_PI * k / (TAPS - 1)));
    hsum += hd[k];
  }
  for (int k = 0; k < TAPS; ++k) h_h[k] = static_cast<float>(hd[k] / hsum);

  // Two tones plus noise, full scale about 1.
  std::vector<float> h_x(n);
  corpus::Rng rng(0xC0271Dull);
  for (int i = 0; i < n; ++i)
    h_x[i] = static_cast<float>(0.5 * std::sin(0.01 * i) + 0.3 * std::sin(1.9 * i)) + 0.2f * rng.uniform(-1.0f, 1.0f);

  float *d_x = nullptr, *d_y = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_x, bytes));
  CORPUS_CHECK(cudaMalloc(&d_y, bytes));
  CORPUS_CHECK(cudaMemcpy(d_x, h_x.data(), bytes, cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpyToSymbol(c_h, h_h, sizeof(h_h)));

  const int grid = (n + BLOCK - 1) / BLOCK;
  conv1d<BLOCK><<<grid, BLOCK>>>(d_x, d_y, n);  // warm-up
  CORPUS_CHECK_LAUNCH();
  CORPUS_CHECK(cudaDeviceSynchronize());
  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) {
    conv1d<BLOCK><<<grid, BLOCK>>>(d_x, d_y, n);
    CORPUS_CHECK_LAUNCH();
  }
  const float gpu_ms = timer.stop();

  std::vector<float> h_y(n);
  CORPUS_CHECK(cudaMemcpy(h_y.data(), d_y, bytes, cudaMemcpyDeviceToHost));

  // CPU reference in double: y[i] = sum_k h[k] x[i + R - k], zero outside the signal.
  std::vector<float> want(n);
  for (int i = 0; i < n; ++i) {
    double acc = 0.0;
    const int k_lo = std::max(0, i + R - (n - 1)), k_hi = std::min(TAPS - 1, i + R);
    for (int k = k_lo; k <= k_hi; ++k) acc += double(h_h[k]) * h_x[i + R - k];
    want[i] = static_cast<float>(acc);
  }

  // 63 float products summed with mixed signs: absolute error ~63 * 6e-8 * sum|h x| <~ 1e-5 at
  // worst. Errors are measured against the signal's full scale 1.0 (floor), tolerance 1e-4.
  const double err = corpus::max_rel_err(h_y, want, 1.0);
  const bool pass = err <= 1e-4;

  CORPUS_CHECK(cudaFree(d_x));
  CORPUS_CHECK(cudaFree(d_y));
  return corpus::report("conv1d", pass, err, gpu_ms);
}
