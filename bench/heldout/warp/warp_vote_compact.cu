// Warp votes: stream compaction where each warp reserves its output slots
// with one atomic (__ballot_sync, __popc, __ffs, __shfl_sync), and a
// histogram with warp-aggregated atomics grouped by __match_any_sync.
// __activemask is used inside the divergent tail of a grid-stride loop.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "../include/heldout.cuh"

__global__ void compact_multiples(const int* __restrict__ in, int n, int divisor,
                                  int* __restrict__ out, int* __restrict__ count) {
  const int lane = threadIdx.x & 31;
  const unsigned lanes_below = (1u << lane) - 1u;
  for (int base = blockIdx.x * blockDim.x; base < n; base += gridDim.x * blockDim.x) {
    const int i = base + threadIdx.x;
    if (i >= n) break;
    const unsigned active = __activemask();
    const int v = in[i];
    const bool keep = v % divisor == 0;
    const unsigned ballot = __ballot_sync(active, keep);
    if (ballot == 0) continue;
    const int leader = __ffs(ballot) - 1;
    int slot = 0;
    if (lane == leader) slot = atomicAdd(count, __popc(ballot));
    slot = __shfl_sync(active, slot, leader);
    if (keep) out[slot + __popc(ballot & lanes_below)] = v;
  }
}

__global__ void histogram_aggregated(const int* __restrict__ in, int n, int bins,
                                     unsigned* __restrict__ hist) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const int key = (in[i] & 0x7fffffff) % bins;
    const unsigned active = __activemask();
    const unsigned peers = __match_any_sync(active, key);
    const int leader = __ffs(peers) - 1;
    if ((threadIdx.x & 31) == leader) atomicAdd(&hist[key], __popc(peers));
  }
}

int main() {
  const int n = 1000003;  // not a multiple of the warp size
  const int divisor = 7, bins = 37;
  std::vector<int> in(n);
  heldout::Lcg rng(55);
  for (auto& v : in) v = int(rng.next() % 1000000);

  int *d_in, *d_out, *d_count;
  unsigned* d_hist;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_count, sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_hist, bins * sizeof(unsigned)));
  CUDA_CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_count, 0, sizeof(int)));
  CUDA_CHECK(cudaMemset(d_hist, 0, bins * sizeof(unsigned)));

  heldout::GpuTimer timer;
  timer.start();
  compact_multiples<<<256, 256>>>(d_in, n, divisor, d_out, d_count);
  CUDA_CHECK_LAUNCH();
  histogram_aggregated<<<256, 256>>>(d_in, n, bins, d_hist);
  CUDA_CHECK_LAUNCH();
  timer.stop();

  int count = 0;
  CUDA_CHECK(cudaMemcpy(&count, d_count, sizeof(int), cudaMemcpyDeviceToHost));
  std::vector<unsigned> hist(bins);
  CUDA_CHECK(cudaMemcpy(hist.data(), d_hist, bins * sizeof(unsigned), cudaMemcpyDeviceToHost));

  std::vector<int> want;
  std::vector<unsigned> want_hist(bins, 0);
  for (int v : in) {
    if (v % divisor == 0) want.push_back(v);
    ++want_hist[(v & 0x7fffffff) % bins];
  }
  long wrong = 0;
  if (count != int(want.size())) {
    wrong = 1 + std::labs(long(count) - long(want.size()));
  } else {
    // Warps append in any order: compare as multisets.
    std::vector<int> got(count);
    CUDA_CHECK(cudaMemcpy(got.data(), d_out, count * sizeof(int), cudaMemcpyDeviceToHost));
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
    for (int k = 0; k < count; ++k) wrong += got[k] != want[k];
  }
  for (int b = 0; b < bins; ++b) wrong += hist[b] != want_hist[b];

  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  CUDA_CHECK(cudaFree(d_count));
  CUDA_CHECK(cudaFree(d_hist));
  return heldout::report("warp_vote_compact", wrong == 0, double(wrong) / n, timer.ms());
}
