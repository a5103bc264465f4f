// 4096-bin histogram of floats in [0, 1) using global-memory atomics only (no privatisation):
// the baseline that histogram_shared improves on. Integer counts: exact match with the CPU.
#include "../include/corpus.cuh"

constexpr int kBins = 4096;

__device__ __host__ inline int bin_of(float x) {
  // x * 4096 is exact in float (power of two), so CPU and GPU agree bit for bit.
  int b = static_cast<int>(x * static_cast<float>(kBins));
  return b < 0 ? 0 : (b >= kBins ? kBins - 1 : b);
}

// Grid-stride loop over float4 (16-byte loads), then the scalar tail; every sample goes
// straight to a global atomicAdd on its bin.
__global__ void histogram_global(const float* __restrict__ x, int n, unsigned int* __restrict__ hist) {
  const int stride = gridDim.x * blockDim.x;
  const int first = blockIdx.x * blockDim.x + threadIdx.x;
  const int n4 = n / 4;
  const float4* x4 = reinterpret_cast<const float4*>(x);
  for (int i = first; i < n4; i += stride) {
    const float4 v = x4[i];
    atomicAdd(&hist[bin_of(v.x)], 1u);
    atomicAdd(&hist[bin_of(v.y)], 1u);
    atomicAdd(&hist[bin_of(v.z)], 1u);
    atomicAdd(&hist[bin_of(v.w)], 1u);
  }
  for (int i = 4 * n4 + first; i < n; i += stride) atomicAdd(&hist[bin_of(x[i])], 1u);
}

int main() {
  const int n = corpus::sized((8 << 20) + 5, (256 << 10) + 5);  // 8 M samples plus a ragged tail
  corpus::Rng rng(0x61u);
  std::vector<float> h_x(n);
  // Mixture: 3/4 uniform, 1/4 squeezed near 0.5 (a peaked distribution, uneven bins).
  for (int i = 0; i < n; ++i) {
    const float u = rng.uniform();
    h_x[i] = (i & 3) == 0 ? 0.5f + 0.05f * (u - 0.5f) : u;
  }

  float* d_x = nullptr;
  unsigned int* d_hist = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_x, n * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&d_hist, kBins * sizeof(unsigned int)));
  CORPUS_CHECK(cudaMemcpy(d_x, h_x.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  int device = 0, sms = 0;
  CORPUS_CHECK(cudaGetDevice(&device));
  CORPUS_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const int threads = 256;
  const int blocks = sms * 8;

  CORPUS_CHECK(cudaMemset(d_hist, 0, kBins * sizeof(unsigned int)));
  histogram_global<<<blocks, threads>>>(d_x, n, d_hist);  // warm-up
  CORPUS_CHECK_LAUNCH();
  CORPUS_CHECK(cudaDeviceSynchronize());

  const int reps = corpus::reps(10);
  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) {
    CORPUS_CHECK(cudaMemsetAsync(d_hist, 0, kBins * sizeof(unsigned int)));
    histogram_global<<<blocks, threads>>>(d_x, n, d_hist);
    CORPUS_CHECK_LAUNCH();
  }
  const float gpu_ms = timer.stop();

  std::vector<unsigned int> h_hist(kBins);
  CORPUS_CHECK(cudaMemcpy(h_hist.data(), d_hist, kBins * sizeof(unsigned int), cudaMemcpyDeviceToHost));

  std::vector<unsigned int> ref(kBins, 0);
  for (int i = 0; i < n; ++i) ++ref[bin_of(h_x[i])];

  // Tolerance: exact (integer counts; bin_of is exact float arithmetic on both sides).
  bool pass = true;
  unsigned long long total = 0;
  for (int b = 0; b < kBins; ++b) {
    total += h_hist[b];
    if (h_hist[b] != ref[b]) pass = false;
  }
  if (total != static_cast<unsigned long long>(n)) pass = false;
  const double err = corpus::max_rel_err(h_hist, ref);

  CORPUS_CHECK(cudaFree(d_x));
  CORPUS_CHECK(cudaFree(d_hist));
  return corpus::report("histogram_global", pass, err, gpu_ms);
}
