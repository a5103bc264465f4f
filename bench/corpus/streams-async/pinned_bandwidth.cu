// Host <-> device copy bandwidth, pinned (cudaMallocHost) versus pageable (std::vector)
// memory. Each direction is timed with events; the data is verified byte for byte after a
// round trip (pinned source -> device -> pageable destination and pageable source -> device
// -> pinned destination), with a kernel in between that touches every word on the device.
// gpu_ms is the total time of the timed copies.
#include "../include/corpus.cuh"

#include <cstring>

// Adds a constant to every word (undone on the CPU side): proves the data went through the
// device rather than being compared against itself.
__global__ void bump(unsigned int* __restrict__ p, size_t n, unsigned int k) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n; i += stride)
    p[i] += k;
}

int main() {
  const size_t words = corpus::sized(16u << 20, 1u << 18);  // 64 MiB per buffer (emulated: 1 MiB)
  const size_t bytes = words * sizeof(unsigned int);
  const int reps = corpus::reps(2);

  unsigned int *pin_src = nullptr, *pin_dst = nullptr;
  CORPUS_CHECK(cudaMallocHost(&pin_src, bytes));
  CORPUS_CHECK(cudaMallocHost(&pin_dst, bytes));
  std::vector<unsigned int> page_src(words), page_dst(words, 0);
  corpus::Rng rng(0xBA4Du);
  for (size_t i = 0; i < words; ++i) {
    pin_src[i] = rng.next_u32();
    page_src[i] = ~pin_src[i] ^ static_cast<unsigned int>(i);
  }
  std::memset(pin_dst, 0, bytes);

  unsigned int *d_a = nullptr, *d_b = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_a, bytes));
  CORPUS_CHECK(cudaMalloc(&d_b, bytes));

  // Warm-up copies (first-touch, driver staging buffers).
  CORPUS_CHECK(cudaMemcpy(d_a, pin_src, bytes, cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(d_b, page_src.data(), bytes, cudaMemcpyHostToDevice));

  corpus::GpuTimer timer;
  float ms[4] = {0, 0, 0, 0};  // H2D pinned, H2D pageable, D2H pinned, D2H pageable
  for (int r = 0; r < reps; ++r) {
    timer.start();
    CORPUS_CHECK(cudaMemcpyAsync(d_a, pin_src, bytes, cudaMemcpyHostToDevice, 0));
    ms[0] += timer.stop();
    timer.start();
    CORPUS_CHECK(cudaMemcpy(d_b, page_src.data(), bytes, cudaMemcpyHostToDevice));
    ms[1] += timer.stop();
  }
  const int threads = 256, blocks = corpus::sized(1024, 64);
  bump<<<blocks, threads>>>(d_a, words, 1u);
  CORPUS_CHECK_LAUNCH();
  bump<<<blocks, threads>>>(d_b, words, 3u);
  CORPUS_CHECK_LAUNCH();
  CORPUS_CHECK(cudaDeviceSynchronize());
  for (int r = 0; r < reps; ++r) {
    timer.start();
    CORPUS_CHECK(cudaMemcpyAsync(pin_dst, d_b, bytes, cudaMemcpyDeviceToHost, 0));
    ms[2] += timer.stop();
    timer.start();
    CORPUS_CHECK(cudaMemcpy(page_dst.data(), d_a, bytes, cudaMemcpyDeviceToHost));
    ms[3] += timer.stop();
  }
  const float gpu_ms = ms[0] + ms[1] + ms[2] + ms[3];
  const char* what[4] = {"H2D pinned", "H2D pageable", "D2H pinned", "D2H pageable"};
  for (int k = 0; k < 4; ++k)
    std::printf("  %-13s %8.2f GB/s\n", what[k], reps * bytes / (ms[k] * 1e-3) / 1e9);

  // Tolerance: exact (bit-for-bit copies; the +1/+3 bumps are integer, mod 2^32).
  size_t bad = 0;
  for (size_t i = 0; i < words; ++i) {
    if (page_dst[i] != pin_src[i] + 1u) ++bad;
    if (pin_dst[i] != page_src[i] + 3u) ++bad;
  }
  const bool pass = bad == 0;
  const double err = static_cast<double>(bad) / (2.0 * words);

  CORPUS_CHECK(cudaFree(d_a));
  CORPUS_CHECK(cudaFree(d_b));
  CORPUS_CHECK(cudaFreeHost(pin_src));
  CORPUS_CHECK(cudaFreeHost(pin_dst));
  return corpus::report("pinned_bandwidth", pass, err, gpu_ms);
}
