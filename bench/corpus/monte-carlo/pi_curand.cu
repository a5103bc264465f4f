// Monte Carlo estimate of pi with the cuRAND device API: every thread owns a Philox4_32_10
// state (curand_init(seed, thread id, 0): one subsequence per thread), draws kSamples points
// in the unit square with curand_uniform and counts those inside the quarter circle. Per-thread
// counts are stored, and a shared-memory block reduction plus one 64-bit atomicAdd per block
// gives the total.
// The CPU cannot replay cuRAND's streams, so it checks what it can:
//  * the reduction exactly: the sum of the per-thread counts must equal the atomic total;
//  * the estimate: hits ~ Binomial(N, p = pi/4), so pi_hat = 4 hits / N has standard error
//    4 sqrt(p (1 - p) / N) (~1e-4 here); we require |pi_hat - pi| < 6 standard errors
//    (a correct generator fails with probability ~2e-9);
//  * the spread: per-thread counts must have mean K p and variance K p (1 - p) (K samples per
//    thread). With T threads the sample mean has SE sqrt(K p (1-p) / T) and the sample variance
//    a relative SE of sqrt(2 / (T - 1)) (~0.55%); both must lie within 6 SEs. This catches
//    correlated or duplicated streams (e.g. every thread with the same subsequence).
// Seeds are fixed, so the outcome is deterministic on a given platform.
#include "../include/corpus.cuh"

#include <curand_kernel.h>

constexpr int kSamples = 4096;  // per thread (emulated: kEmuSamples)
constexpr int kEmuSamples = 128;

template <int BLOCK>
__global__ void pi_kernel(unsigned long long seed, unsigned int* __restrict__ thread_hits,
                          unsigned long long* __restrict__ total, int samples) {
  __shared__ unsigned long long partial[BLOCK];
  const int tid = blockIdx.x * BLOCK + threadIdx.x;
  curandStatePhilox4_32_10_t state;
  curand_init(seed, tid, 0, &state);
  unsigned int hits = 0;
  for (int i = 0; i < samples; ++i) {
    const float x = curand_uniform(&state);
    const float y = curand_uniform(&state);
    if (x * x + y * y <= 1.0f) ++hits;
  }
  thread_hits[tid] = hits;
  partial[threadIdx.x] = hits;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(total, partial[0]);
}

int main() {
  constexpr int kBlock = 256;
  const int blocks = corpus::sized(256, 16);
  const int threads = blocks * kBlock;  // 65536 threads, 268 M points (emulated: 4096, 0.5 M)
  const int samples = corpus::sized(kSamples, kEmuSamples);
  corpus::Rng rng(0x314159u);
  const unsigned long long seed = rng.next();

  unsigned int* d_hits = nullptr;
  unsigned long long* d_total = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_hits, threads * sizeof(unsigned int)));
  CORPUS_CHECK(cudaMalloc(&d_total, sizeof(unsigned long long)));

  auto run = [&]() {
    CORPUS_CHECK(cudaMemsetAsync(d_total, 0, sizeof(unsigned long long)));
    pi_kernel<kBlock><<<blocks, kBlock>>>(seed, d_hits, d_total, samples);
    CORPUS_CHECK_LAUNCH();
  };
  run();  // warm-up
  CORPUS_CHECK(cudaDeviceSynchronize());
  const int reps = corpus::reps(5);  // same seed every time: identical results
  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) run();
  const float gpu_ms = timer.stop();

  std::vector<unsigned int> hits(threads);
  unsigned long long total = 0;
  CORPUS_CHECK(cudaMemcpy(hits.data(), d_hits, threads * sizeof(unsigned int), cudaMemcpyDeviceToHost));
  CORPUS_CHECK(cudaMemcpy(&total, d_total, sizeof(unsigned long long), cudaMemcpyDeviceToHost));

  const double pi = 3.14159265358979323846;
  const double p = pi / 4.0;
  const double K = samples, T = threads, N = K * T;
  unsigned long long sum = 0;
  double sum_sq = 0.0;
  for (int t = 0; t < threads; ++t) {
    sum += hits[t];
    sum_sq += static_cast<double>(hits[t]) * hits[t];
  }
  const double mean = static_cast<double>(sum) / T;
  const double var = (sum_sq - T * mean * mean) / (T - 1.0);

  const double pi_hat = 4.0 * static_cast<double>(total) / N;
  const double se_pi = 4.0 * std::sqrt(p * (1.0 - p) / N);
  const double var_expected = K * p * (1.0 - p);
  const double se_mean = std::sqrt(var_expected / T);
  const double rel_se_var = std::sqrt(2.0 / (T - 1.0));

  const bool sum_ok = sum == total;
  const bool pi_ok = std::fabs(pi_hat - pi) < 6.0 * se_pi;
  const bool mean_ok = std::fabs(mean - K * p) < 6.0 * se_mean;
  const bool var_ok = std::fabs(var / var_expected - 1.0) < 6.0 * rel_se_var;
  std::printf("pi_hat=%.6f (%.2f SE), thread mean %.2f (expect %.2f), var %.2f (expect %.2f)\n",
              pi_hat, (pi_hat - pi) / se_pi, mean, K * p, var, var_expected);
  const bool pass = sum_ok && pi_ok && mean_ok && var_ok;

  CORPUS_CHECK(cudaFree(d_hits));
  CORPUS_CHECK(cudaFree(d_total));
  return corpus::report("pi_curand", pass, std::fabs(pi_hat - pi) / pi, gpu_ms);
}
