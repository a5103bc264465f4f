// European call option priced by Monte Carlo: 1 M geometric-Brownian-motion paths of 64 time
// steps each, one path per thread, normals from cuRAND's device API (MRG32k3a state,
// curand_init(seed, path, 0) so every path has its own subsequence, curand_normal).
// Steps are exact in log space, log S += (r - sigma^2 / 2) dt + sigma sqrt(dt) Z, so the
// terminal price has exactly the Black-Scholes distribution and the discounted mean payoff is
// an unbiased estimator of the closed-form price. Per-path payoffs are stored; a block
// reduction in double plus double atomicAdds gives sum and sum of squares on the GPU.
// Checks:
//  * the GPU sums against a CPU double sum of the stored payoffs (1e-9 relative: only the
//    summation order differs);
//  * the price against the Black-Scholes closed form within 3 standard errors, SE = sample
//    standard deviation / sqrt(paths) (~0.014 here on a price of ~8). A correct generator
//    passes with probability 99.7%; the seed is fixed, so the outcome never flips between
//    runs. Float rounding in the path (~1e-6 relative) is negligible next to the SE, while a
//    wrong drift, volatility or discount moves the price by many SEs.
#include "../include/corpus.cuh"

#include <algorithm>

#include <curand_kernel.h>

struct OptionParams {
  float s0, strike, rate, sigma, maturity;
  int steps;
};

template <int BLOCK>
__global__ void price_paths(OptionParams p, unsigned long long seed, int paths,
                            float* __restrict__ payoff, double* __restrict__ sums) {
  __shared__ double s_sum[BLOCK];
  __shared__ double s_sq[BLOCK];
  const int path = blockIdx.x * BLOCK + threadIdx.x;
  double v = 0.0;
  if (path < paths) {
    curandStateMRG32k3a_t state;
    curand_init(seed, path, 0, &state);
    const float dt = p.maturity / p.steps;
    const float drift = (p.rate - 0.5f * p.sigma * p.sigma) * dt;
    const float vol = p.sigma * sqrtf(dt);
    float log_s = logf(p.s0);
    for (int k = 0; k < p.steps; ++k) log_s += drift + vol * curand_normal(&state);
    const float disc = expf(-p.rate * p.maturity) * fmaxf(expf(log_s) - p.strike, 0.0f);
    payoff[path] = disc;
    v = disc;
  }
  s_sum[threadIdx.x] = v;
  s_sq[threadIdx.x] = v * v;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) {
      s_sum[threadIdx.x] += s_sum[threadIdx.x + s];
      s_sq[threadIdx.x] += s_sq[threadIdx.x + s];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    atomicAdd(&sums[0], s_sum[0]);
    atomicAdd(&sums[1], s_sq[0]);
  }
}

static double norm_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

int main() {
  const int paths = corpus::sized(1 << 20, 1 << 12);
  // Log-Euler steps are exact for GBM at any step count: emulated, 16 steps.
  const OptionParams p{100.0f, 105.0f, 0.05f, 0.2f, 1.0f, corpus::sized(64, 16)};
  corpus::Rng rng(0x0B5u);
  const unsigned long long seed = rng.next();

  float* d_payoff = nullptr;
  double* d_sums = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_payoff, paths * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&d_sums, 2 * sizeof(double)));

  constexpr int kBlock = 256;
  const int blocks = (paths + kBlock - 1) / kBlock;
  auto run = [&]() {
    CORPUS_CHECK(cudaMemsetAsync(d_sums, 0, 2 * sizeof(double)));
    price_paths<kBlock><<<blocks, kBlock>>>(p, seed, paths, d_payoff, d_sums);
    CORPUS_CHECK_LAUNCH();
  };
  run();  // warm-up
  CORPUS_CHECK(cudaDeviceSynchronize());
  const int reps = corpus::reps(3);  // same seed: identical paths every time
  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) run();
  const float gpu_ms = timer.stop();

  std::vector<float> payoff(paths);
  double sums[2] = {0.0, 0.0};
  CORPUS_CHECK(cudaMemcpy(payoff.data(), d_payoff, paths * sizeof(float), cudaMemcpyDeviceToHost));
  CORPUS_CHECK(cudaMemcpy(sums, d_sums, 2 * sizeof(double), cudaMemcpyDeviceToHost));

  // CPU: statistics of the stored payoffs.
  double sum = 0.0, sum_sq = 0.0;
  for (int i = 0; i < paths; ++i) {
    sum += payoff[i];
    sum_sq += static_cast<double>(payoff[i]) * payoff[i];
  }
  const double mean = sum / paths;
  const double var = (sum_sq - paths * mean * mean) / (paths - 1.0);
  const double se = std::sqrt(var / paths);

  // Black-Scholes closed form.
  const double s0 = p.s0, k = p.strike, r = p.rate, sig = p.sigma, t = p.maturity;
  const double d1 = (std::log(s0 / k) + (r + 0.5 * sig * sig) * t) / (sig * std::sqrt(t));
  const double d2 = d1 - sig * std::sqrt(t);
  const double bs = s0 * norm_cdf(d1) - k * std::exp(-r * t) * norm_cdf(d2);

  const double sum_err = std::max(corpus::rel_err(sums[0], sum), corpus::rel_err(sums[1], sum_sq));
  const bool sums_ok = sum_err <= 1e-9;
  const bool price_ok = std::fabs(mean - bs) < 3.0 * se;
  std::printf("MC price %.5f +- %.5f (SE), Black-Scholes %.5f, deviation %.2f SE\n", mean, se, bs,
              (mean - bs) / se);
  const bool pass = sums_ok && price_ok;

  CORPUS_CHECK(cudaFree(d_payoff));
  CORPUS_CHECK(cudaFree(d_sums));
  return corpus::report("option_pricing", pass, std::fabs(mean - bs) / bs, gpu_ms);
}
