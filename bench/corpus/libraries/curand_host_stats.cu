// cuRAND's host API: a Philox generator fills 4M floats uniformly and 4M normally distributed
// (mean 2, standard deviation 0.5), and a kernel turns the uniform numbers into a histogram.
// Random sequences differ between vendors' generators, so the check is statistical: moments
// within 6 standard errors, every uniform number in (0, 1], histogram buckets within 6 sigma of
// n/64, and the histogram's total equal to the count of numbers.
#include <curand.h>

#include "../include/corpus.cuh"

#define CURAND_CHECK(call) CORPUS_CHECK_STATUS(call, CURAND_STATUS_SUCCESS)

constexpr int kBins = 64;

__global__ void histogram(const float* u, int n, unsigned* bins) {
  __shared__ unsigned local[kBins];
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    int b = static_cast<int>(u[i] * kBins);
    atomicAdd(&local[b < kBins ? b : kBins - 1], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) atomicAdd(&bins[b], local[b]);
}

int main() {
  const int n = corpus::sized(1 << 22, 1 << 16);
  float *d_u = nullptr, *d_g = nullptr;
  unsigned* d_bins = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_u, n * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&d_g, n * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&d_bins, kBins * sizeof(unsigned)));
  CORPUS_CHECK(cudaMemset(d_bins, 0, kBins * sizeof(unsigned)));

  curandGenerator_t gen;
  CURAND_CHECK(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_PHILOX4_32_10));
  CURAND_CHECK(curandSetPseudoRandomGeneratorSeed(gen, 20261206ull));
  corpus::GpuTimer timer;
  timer.start();
  CURAND_CHECK(curandGenerateUniform(gen, d_u, n));
  CURAND_CHECK(curandGenerateNormal(gen, d_g, n, 2.0f, 0.5f));
  histogram<<<64, 256>>>(d_u, n, d_bins);
  CORPUS_CHECK_LAUNCH();
  const float gpu_ms = timer.stop();
  CURAND_CHECK(curandDestroyGenerator(gen));

  std::vector<float> u(n), g(n);
  std::vector<unsigned> bins(kBins);
  CORPUS_CHECK(cudaMemcpy(u.data(), d_u, n * sizeof(float), cudaMemcpyDeviceToHost));
  CORPUS_CHECK(cudaMemcpy(g.data(), d_g, n * sizeof(float), cudaMemcpyDeviceToHost));
  CORPUS_CHECK(cudaMemcpy(bins.data(), d_bins, kBins * sizeof(unsigned), cudaMemcpyDeviceToHost));

  bool pass = true;
  double su = 0, su2 = 0, sg = 0, sg2 = 0;
  for (int i = 0; i < n; ++i) {
    if (!(u[i] > 0.0f && u[i] <= 1.0f)) pass = false;
    su += u[i], su2 += (double)u[i] * u[i];
    sg += g[i], sg2 += (double)g[i] * g[i];
  }
  const double mu = su / n, vu = su2 / n - mu * mu, mg = sg / n, vg = sg2 / n - mg * mg;
  // Standard errors of the mean: sqrt(var / n); of the variance, about var * sqrt(2 / n).
  const double e_mu = std::fabs(mu - 0.5) / std::sqrt((1.0 / 12) / n);
  const double e_vu = std::fabs(vu - 1.0 / 12) / ((1.0 / 12) * std::sqrt(2.0 / n));
  const double e_mg = std::fabs(mg - 2.0) / std::sqrt(0.25 / n);
  const double e_vg = std::fabs(vg - 0.25) / (0.25 * std::sqrt(2.0 / n));
  double worst = std::fmax(std::fmax(e_mu, e_vu), std::fmax(e_mg, e_vg));
  unsigned long long total = 0;
  const double expect = (double)n / kBins, sigma = std::sqrt(expect * (1.0 - 1.0 / kBins));
  for (unsigned b : bins) {
    total += b;
    worst = std::fmax(worst, std::fabs(b - expect) / sigma);
  }
  if (total != (unsigned long long)n) pass = false;
  if (!(worst <= 6.0)) pass = false;
  if (!pass) std::fprintf(stderr, "curand_host_stats: mean %g var %g, normal mean %g var %g, total %llu, worst %g sigma\n", mu, vu, mg, vg, total, worst);

  CORPUS_CHECK(cudaFree(d_u));
  CORPUS_CHECK(cudaFree(d_g));
  CORPUS_CHECK(cudaFree(d_bins));
  // max_rel_err: the largest deviation, in standard errors, divided by 6 (1.0 = the limit).
  return corpus::report("curand_host_stats", pass, worst / 6.0, gpu_ms);
}
