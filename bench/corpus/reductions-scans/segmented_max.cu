// Segmented maximum: for 8192 segments of varying length (0..2048 floats, ~8.4 M in all,
// CSR-style offsets), the maximum of each segment. One block per segment: the threads stride
// through the segment, reduce with warp shuffles and one shared slot per warp. An empty
// segment yields -FLT_MAX, the identity of max. Max is exact, so results must match exactly.
#include "../include/corpus.cuh"

#include <algorithm>
#include <cfloat>

constexpr unsigned FULL_MASK = 0xffffffffu;

__device__ __forceinline__ float warp_max(float v) {
  for (int offset = warpSize / 2; offset > 0; offset >>= 1)
    v = fmaxf(v, __shfl_xor_sync(FULL_MASK, v, offset));
  return v;  // every lane holds the warp maximum (butterfly)
}

// Needs blockDim.x / warpSize <= warpSize; the result is valid in every thread of warp 0.
__device__ float block_max(float v, float* warp_vals) {
  const int lane = threadIdx.x % warpSize;
  const int wid = threadIdx.x / warpSize;
  const int nwarps = (blockDim.x + warpSize - 1) / warpSize;
  v = warp_max(v);
  if (lane == 0) warp_vals[wid] = v;
  __syncthreads();
  if (wid == 0) v = warp_max(lane < nwarps ? warp_vals[lane] : -FLT_MAX);
  return v;
}

__global__ void segmented_max(const float* __restrict__ values, const int* __restrict__ offsets,
                              float* __restrict__ out, int segments) {
  __shared__ float warp_vals[64];
  const int seg = blockIdx.x;
  if (seg >= segments) return;  // uniform across the block
  const int begin = offsets[seg];
  const int end = offsets[seg + 1];
  float m = -FLT_MAX;
  for (int i = begin + threadIdx.x; i < end; i += blockDim.x) m = fmaxf(m, values[i]);
  m = block_max(m, warp_vals);
  if (threadIdx.x == 0) out[seg] = m;
}

int main() {
  const int segments = corpus::sized(8192, 512);  // emulated: segment 7 is still empty
  const int max_len = 2048;
  const int threads = 256;
  const int reps = corpus::reps(200);  // ~34 MiB read per call: ~12 us on an H200

  corpus::Rng rng(0x5e9ull);
  std::vector<int> h_offsets(segments + 1);
  h_offsets[0] = 0;
  for (int s = 0; s < segments; ++s) {
    int len = (int)rng.below(max_len + 1);
    if (s % 509 == 7) len = 0;  // make sure some segments are empty
    h_offsets[s + 1] = h_offsets[s] + len;
  }
  const int n = h_offsets[segments];
  std::vector<float> h_values(n), h_out(segments);
  for (auto& v : h_values) v = rng.uniform(-100.0f, 50.0f);

  float *d_values = nullptr, *d_out = nullptr;
  int* d_offsets = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_values, (size_t)n * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&d_offsets, h_offsets.size() * sizeof(int)));
  CORPUS_CHECK(cudaMalloc(&d_out, segments * sizeof(float)));
  CORPUS_CHECK(cudaMemcpy(d_values, h_values.data(), (size_t)n * sizeof(float), cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(d_offsets, h_offsets.data(), h_offsets.size() * sizeof(int), cudaMemcpyHostToDevice));

  segmented_max<<<segments, threads>>>(d_values, d_offsets, d_out, segments);  // warm-up
  CORPUS_CHECK_LAUNCH();
  CORPUS_CHECK(cudaDeviceSynchronize());

  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) {
    segmented_max<<<segments, threads>>>(d_values, d_offsets, d_out, segments);
    CORPUS_CHECK_LAUNCH();
  }
  const float gpu_ms = timer.stop();
  CORPUS_CHECK(cudaMemcpy(h_out.data(), d_out, segments * sizeof(float), cudaMemcpyDeviceToHost));

  // CPU reference. The maximum of a set of floats does not depend on the order in which it
  // is taken, so the tolerance is 0: every segment must match exactly.
  std::vector<float> ref(segments);
  int empty = 0;
  for (int s = 0; s < segments; ++s) {
    float m = -FLT_MAX;
    for (int i = h_offsets[s]; i < h_offsets[s + 1]; ++i) m = std::max(m, h_values[i]);
    ref[s] = m;
    empty += h_offsets[s] == h_offsets[s + 1];
  }
  int mismatches = 0;
  for (int s = 0; s < segments; ++s) mismatches += h_out[s] != ref[s];
  const double err = corpus::max_rel_err(h_out, ref);
  const bool pass = mismatches == 0 && empty > 0;
  if (!pass) std::fprintf(stderr, "segmented_max: %d mismatches, %d empty segments\n", mismatches, empty);

  CORPUS_CHECK(cudaFree(d_values));
  CORPUS_CHECK(cudaFree(d_offsets));
  CORPUS_CHECK(cudaFree(d_out));
  return corpus::report("segmented_max", pass, err, gpu_ms);
}
