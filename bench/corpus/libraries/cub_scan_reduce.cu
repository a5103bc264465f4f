// CUB device-wide primitives: an exclusive prefix sum, a sum and a maximum over 4M integers with
// cub::DeviceScan and cub::DeviceReduce, each called twice as CUB prescribes (first to size the
// temporary storage, then to run). The kind of code that keeps a CUDA project on CUB: the
// translation must land on hipCUB (over rocPRIM) with the same two-call protocol.
#include <cub/cub.cuh>

#include "../include/corpus.cuh"

int main() {
  const int n = corpus::sized(1 << 22, (1 << 16) + 777);
  const int reps = corpus::reps(20);
  corpus::Rng rng(0xc0bull);
  std::vector<int> h(n);
  for (auto& v : h) v = static_cast<int>(rng.next() % 2001) - 1000;

  int *d_in = nullptr, *d_scan = nullptr, *d_sum = nullptr, *d_max = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CORPUS_CHECK(cudaMalloc(&d_scan, n * sizeof(int)));
  CORPUS_CHECK(cudaMalloc(&d_sum, sizeof(int)));
  CORPUS_CHECK(cudaMalloc(&d_max, sizeof(int)));
  CORPUS_CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  // Temporary storage: the largest of the three requests.
  size_t scan_bytes = 0, sum_bytes = 0, max_bytes = 0;
  CORPUS_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, d_in, d_scan, n));
  CORPUS_CHECK(cub::DeviceReduce::Sum(nullptr, sum_bytes, d_in, d_sum, n));
  CORPUS_CHECK(cub::DeviceReduce::Max(nullptr, max_bytes, d_in, d_max, n));
  size_t temp_bytes = scan_bytes > sum_bytes ? scan_bytes : sum_bytes;
  if (max_bytes > temp_bytes) temp_bytes = max_bytes;
  void* d_temp = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_temp, temp_bytes));

  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) {
    CORPUS_CHECK(cub::DeviceScan::ExclusiveSum(d_temp, scan_bytes, d_in, d_scan, n));
    CORPUS_CHECK(cub::DeviceReduce::Sum(d_temp, sum_bytes, d_in, d_sum, n));
    CORPUS_CHECK(cub::DeviceReduce::Max(d_temp, max_bytes, d_in, d_max, n));
  }
  const float gpu_ms = timer.stop() / reps;
  std::vector<int> scan(n);
  int sum = 0, max = 0;
  CORPUS_CHECK(cudaMemcpy(scan.data(), d_scan, n * sizeof(int), cudaMemcpyDeviceToHost));
  CORPUS_CHECK(cudaMemcpy(&sum, d_sum, sizeof(int), cudaMemcpyDeviceToHost));
  CORPUS_CHECK(cudaMemcpy(&max, d_max, sizeof(int), cudaMemcpyDeviceToHost));

  // Integers: the results are exact.
  long long mismatches = 0, running = 0;
  int want_max = h[0];
  for (int i = 0; i < n; ++i) {
    if (scan[i] != static_cast<int>(running)) ++mismatches;
    running += h[i];
    if (h[i] > want_max) want_max = h[i];
  }
  if (sum != static_cast<int>(running)) ++mismatches;
  if (max != want_max) ++mismatches;
  if (mismatches) std::fprintf(stderr, "cub_scan_reduce: %lld mismatches (sum %d, want %lld; max %d, want %d)\n", mismatches, sum, running, max, want_max);

  CORPUS_CHECK(cudaFree(d_temp));
  CORPUS_CHECK(cudaFree(d_in));
  CORPUS_CHECK(cudaFree(d_scan));
  CORPUS_CHECK(cudaFree(d_sum));
  CORPUS_CHECK(cudaFree(d_max));
  return corpus::report("cub_scan_reduce", mismatches == 0, mismatches ? 1.0 : 0.0, gpu_ms);
}
