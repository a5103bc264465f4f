// 256-bin byte histogram: each block privatises a histogram in shared memory (fast shared
// atomics), then merges it into the global histogram with one global atomicAdd per bin.
// Integer counts: the GPU result must match the CPU exactly.
#include "../include/corpus.cuh"

#include <cstring>

constexpr int kBins = 256;

__global__ void histogram_shared(const unsigned char* __restrict__ data, size_t n,
                                 unsigned int* __restrict__ hist) {
  __shared__ unsigned int local[kBins];
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) local[b] = 0;
  __syncthreads();

  // Vectorised body: 4 bytes per load, grid-stride.
  const size_t n4 = n / 4;
  const uchar4* data4 = reinterpret_cast<const uchar4*>(data);
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n4; i += stride) {
    const uchar4 v = data4[i];
    atomicAdd(&local[v.x], 1u);
    atomicAdd(&local[v.y], 1u);
    atomicAdd(&local[v.z], 1u);
    atomicAdd(&local[v.w], 1u);
  }
  // Tail bytes (n not a multiple of 4).
  for (size_t i = n4 * 4 + blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n; i += stride)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();

  for (int b = threadIdx.x; b < kBins; b += blockDim.x) {
    const unsigned int c = local[b];
    if (c != 0) atomicAdd(&hist[b], c);
  }
}

int main() {
  const size_t n = corpus::sized((16u << 20) + 3, (1u << 20) + 3);  // 16 M bytes plus a ragged tail
  corpus::Rng rng(0x4157u);
  std::vector<unsigned char> h_data(n);
  // Skewed distribution (sum of two uniforms -> triangular, plus some hot bins) so that
  // shared-memory contention is realistic and not all bins are equal.
  for (size_t i = 0; i < n; ++i) {
    const std::uint32_t r = rng.next_u32();
    if ((r & 15u) == 0) h_data[i] = static_cast<unsigned char>(7 * ((r >> 4) & 3));
    else h_data[i] = static_cast<unsigned char>(((r >> 8) & 127u) + ((r >> 16) & 127u));
  }

  unsigned char* d_data = nullptr;
  unsigned int* d_hist = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_data, n));
  CORPUS_CHECK(cudaMalloc(&d_hist, kBins * sizeof(unsigned int)));
  CORPUS_CHECK(cudaMemcpy(d_data, h_data.data(), n, cudaMemcpyHostToDevice));

  int device = 0, sms = 0;
  CORPUS_CHECK(cudaGetDevice(&device));
  CORPUS_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const int threads = 256;
  const int blocks = sms * 8;

  // Warm-up.
  CORPUS_CHECK(cudaMemset(d_hist, 0, kBins * sizeof(unsigned int)));
  histogram_shared<<<blocks, threads>>>(d_data, n, d_hist);
  CORPUS_CHECK_LAUNCH();
  CORPUS_CHECK(cudaDeviceSynchronize());

  const int reps = corpus::reps(50);
  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) {
    CORPUS_CHECK(cudaMemsetAsync(d_hist, 0, kBins * sizeof(unsigned int)));
    histogram_shared<<<blocks, threads>>>(d_data, n, d_hist);
    CORPUS_CHECK_LAUNCH();
  }
  const float gpu_ms = timer.stop();

  std::vector<unsigned int> h_hist(kBins);
  CORPUS_CHECK(cudaMemcpy(h_hist.data(), d_hist, kBins * sizeof(unsigned int), cudaMemcpyDeviceToHost));

  // CPU reference.
  std::vector<unsigned int> ref(kBins, 0);
  for (size_t i = 0; i < n; ++i) ++ref[h_data[i]];

  // Tolerance: exact (integer counts).
  bool pass = true;
  unsigned long long total = 0;
  for (int b = 0; b < kBins; ++b) {
    total += h_hist[b];
    if (h_hist[b] != ref[b]) pass = false;
  }
  if (total != n) pass = false;
  const double err = corpus::max_rel_err(h_hist, ref);

  CORPUS_CHECK(cudaFree(d_data));
  CORPUS_CHECK(cudaFree(d_hist));
  return corpus::report("histogram_shared", pass, err, gpu_ms);
}
