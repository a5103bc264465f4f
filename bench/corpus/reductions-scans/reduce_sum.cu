// Sum of 16 M floats in two passes. Pass 1: a fixed grid of blocks walks the array with a
// grid-stride loop, each thread keeps a private sum, and each block reduces its threads with
// warp shuffles plus one shared-memory slot per warp, writing one partial per block.
// Pass 2: the same kernel with a single block reduces the partials. No atomics, so the
// result is deterministic run to run.
#include "../include/corpus.cuh"

constexpr unsigned FULL_MASK = 0xffffffffu;

__device__ __forceinline__ float warp_sum(float v) {
  for (int offset = warpSize / 2; offset > 0; offset >>= 1) v += __shfl_down_sync(FULL_MASK, v, offset);
  return v;
}

// Sum over the block; the result is valid in thread 0. warp_sums needs one slot per warp
// (64 slots cover 1024 threads even for a 16-lane warp). Needs blockDim.x / warpSize <= warpSize.
__device__ float block_sum(float v, float* warp_sums) {
  const int lane = threadIdx.x % warpSize;
  const int wid = threadIdx.x / warpSize;
  const int nwarps = (blockDim.x + warpSize - 1) / warpSize;
  v = warp_sum(v);
  if (lane == 0) warp_sums[wid] = v;
  __syncthreads();
  if (wid == 0) {
    v = lane < nwarps ? warp_sums[lane] : 0.0f;
    v = warp_sum(v);
  }
  return v;
}

__global__ void reduce_partial(const float* __restrict__ in, float* __restrict__ out, size_t n) {
  __shared__ float warp_sums[64];
  float s = 0.0f;
  const size_t stride = (size_t)blockDim.x * gridDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) s += in[i];
  s = block_sum(s, warp_sums);
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}

int main() {
  const size_t n = corpus::sized((size_t)1 << 24, (size_t)1 << 18);
  const int threads = 256;
  const int blocks = corpus::sized(1024, 128);  // 262144 threads, 64 elements each (emulated: 8)
  const int reps = corpus::reps(100);  // 64 MiB read per reduction: ~20 us on an H200

  corpus::Rng rng(0x5053ull);
  std::vector<float> h_in(n);
  for (auto& v : h_in) v = rng.uniform(-0.5f, 1.0f);  // mixed signs, positive mean

  float *d_in = nullptr, *d_partial = nullptr, *d_sum = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&d_partial, blocks * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&d_sum, sizeof(float)));
  CORPUS_CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  auto reduce = [&]() {
    reduce_partial<<<blocks, threads>>>(d_in, d_partial, n);
    CORPUS_CHECK_LAUNCH();
    reduce_partial<<<1, threads>>>(d_partial, d_sum, (size_t)blocks);
    CORPUS_CHECK_LAUNCH();
  };
  reduce();  // warm-up
  CORPUS_CHECK(cudaDeviceSynchronize());

  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) reduce();
  const float gpu_ms = timer.stop();

  float h_sum = 0.0f;
  CORPUS_CHECK(cudaMemcpy(&h_sum, d_sum, sizeof(float), cudaMemcpyDeviceToHost));

  // CPU reference: sequential sum in double (exact enough to be the truth here).
  double ref = 0.0;
  for (size_t i = 0; i < n; ++i) ref += h_in[i];

  // The GPU sums 64 floats per thread and then trees of 32 and 1024; the relative error of
  // such a sum of mostly-positive terms is ~1e-6. 1e-4 relative leaves a wide margin while
  // still catching a lost or doubled block (that would be off by ~1e-3).
  const double err = corpus::rel_err(h_sum, ref);
  const bool pass = err <= 1e-4;

  CORPUS_CHECK(cudaFree(d_in));
  CORPUS_CHECK(cudaFree(d_partial));
  CORPUS_CHECK(cudaFree(d_sum));
  return corpus::report("reduce_sum", pass, err, gpu_ms);
}
