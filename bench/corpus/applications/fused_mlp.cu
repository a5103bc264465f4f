// Fully fused MLP inference (tiny-cuda-nn style, CUDA cores, no tensor cores): 32 inputs
// (e.g. a 16-level x 2-feature hash-grid encoding) -> 64 -> 64 -> 16 outputs, ReLU on the
// hidden layers, linear output. One thread block runs the whole network for a tile of 32
// points: all weights and biases sit in shared memory (loaded once per block), activations
// ping-pong between two shared buffers, and each thread computes 16 (or 4) neurons of one
// point per layer. Batch: 256 K points.
#include "../include/corpus.cuh"

#include <algorithm>

constexpr int kIn = 32, kHid = 64, kOut = 16;
constexpr int kTile = 32;      // points per block
constexpr int kThreads = 128;  // 4 neuron groups x 32 points
constexpr int kGroups = kThreads / kTile;
constexpr int kPad = kTile + 1;  // activation row stride (avoids bank conflicts on stores)
// Parameter layout (row-major, W[k][j] = weight from input k to neuron j):
constexpr int kW1 = 0, kB1 = kW1 + kIn * kHid, kW2 = kB1 + kHid, kB2 = kW2 + kHid * kHid;
constexpr int kW3 = kB2 + kHid, kB3 = kW3 + kHid * kOut, kParams = kB3 + kOut;

// One dense layer on the tile: act_out[j][p] = act(b[j] + sum_k act_in[k][p] * W[k][j]).
template <int kFanIn, int kFanOut, bool kRelu>
__device__ inline void dense(const float* __restrict__ w, const float* __restrict__ bias,
                             const float* act_in, float* act_out, int p, int group) {
  constexpr int kPer = kFanOut / kGroups;
  const int j0 = group * kPer;
  float acc[kPer];
#pragma unroll
  for (int jj = 0; jj < kPer; ++jj) acc[jj] = bias[j0 + jj];
  for (int k = 0; k < kFanIn; ++k) {
    const float a = act_in[k * kPad + p];
#pragma unroll
    for (int jj = 0; jj < kPer; ++jj) acc[jj] += a * w[k * kFanOut + j0 + jj];  // broadcast
  }
#pragma unroll
  for (int jj = 0; jj < kPer; ++jj) act_out[(j0 + jj) * kPad + p] = kRelu ? fmaxf(acc[jj], 0.0f) : acc[jj];
}

__global__ void __launch_bounds__(kThreads) fused_mlp(const float* __restrict__ in,
                                                      const float* __restrict__ params,
                                                      float* __restrict__ out, int n) {
  __shared__ float s_params[kParams];
  __shared__ float s_a[kHid * kPad];
  __shared__ float s_b[kHid * kPad];
  for (int i = threadIdx.x; i < kParams; i += kThreads) s_params[i] = params[i];

  const int first = blockIdx.x * kTile;
  // Stage the input tile transposed: s_a[k][p]; coalesced global reads.
  for (int e = threadIdx.x; e < kTile * kIn; e += kThreads) {
    const int p = e / kIn, k = e % kIn;
    s_a[k * kPad + p] = (first + p < n) ? in[static_cast<size_t>(first + p) * kIn + k] : 0.0f;
  }
  __syncthreads();

  const int p = threadIdx.x % kTile;
  const int group = threadIdx.x / kTile;
  dense<kIn, kHid, true>(s_params + kW1, s_params + kB1, s_a, s_b, p, group);
  __syncthreads();
  dense<kHid, kHid, true>(s_params + kW2, s_params + kB2, s_b, s_a, p, group);
  __syncthreads();
  dense<kHid, kOut, false>(s_params + kW3, s_params + kB3, s_a, s_b, p, group);
  __syncthreads();

  // Write the output tile: out[point][j], coalesced over the 32 x 16 tile.
  for (int e = threadIdx.x; e < kTile * kOut; e += kThreads) {
    const int pp = e / kOut, j = e % kOut;
    if (first + pp < n) out[static_cast<size_t>(first + pp) * kOut + j] = s_b[j * kPad + pp];
  }
}

int main() {
  const int n = corpus::sized(256 * 1024, 2048);  // emulated: 64 blocks
  corpus::Rng rng(0xF00Du);
  std::vector<float> h_in(static_cast<size_t>(n) * kIn), h_params(kParams);
  for (auto& v : h_in) v = rng.uniform(-1.0f, 1.0f);
  // He-uniform-like init per layer, small biases.
  auto init = [&](int off, int fan_in, int count) {
    const float lim = std::sqrt(6.0f / fan_in);
    for (int i = 0; i < count; ++i) h_params[off + i] = rng.uniform(-lim, lim);
  };
  init(kW1, kIn, kIn * kHid);
  init(kW2, kHid, kHid * kHid);
  init(kW3, kHid, kHid * kOut);
  for (int off : {kB1, kB2}) for (int j = 0; j < kHid; ++j) h_params[off + j] = rng.uniform(-0.1f, 0.1f);
  for (int j = 0; j < kOut; ++j) h_params[kB3 + j] = rng.uniform(-0.1f, 0.1f);

  float *d_in, *d_params, *d_out;
  CORPUS_CHECK(cudaMalloc(&d_in, h_in.size() * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&d_params, kParams * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&d_out, static_cast<size_t>(n) * kOut * sizeof(float)));
  CORPUS_CHECK(cudaMemcpy(d_in, h_in.data(), h_in.size() * sizeof(float), cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(d_params, h_params.data(), kParams * sizeof(float), cudaMemcpyHostToDevice));

  const int blocks = (n + kTile - 1) / kTile;
  fused_mlp<<<blocks, kThreads>>>(d_in, d_params, d_out, n);  // warm-up
  CORPUS_CHECK_LAUNCH();
  CORPUS_CHECK(cudaDeviceSynchronize());
  const int reps = corpus::reps(10);
  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) {
    fused_mlp<<<blocks, kThreads>>>(d_in, d_params, d_out, n);
    CORPUS_CHECK_LAUNCH();
  }
  const float gpu_ms = timer.stop();

  std::vector<float> h_out(static_cast<size_t>(n) * kOut);
  CORPUS_CHECK(cudaMemcpy(h_out.data(), d_out, h_out.size() * sizeof(float), cudaMemcpyDeviceToHost));

  // CPU reference in double on every 17th point (15 K points, ~110 M multiply-adds, which
  // keeps the reference well under 0.5 s; 17 is odd, so the samples hit every point slot of
  // the 32-point tile and every neuron group). Tolerance 1e-4 relative with a 0.5 floor
  // (absolute 5e-5 below it): each layer is a float sum of up to 64 products of order 0.1-1
  // in a fixed order (error ~1e-6, growing a little through the layers); outputs are of
  // order 1 and can cancel towards zero, where a relative measure would be meaningless.
  double worst = 0.0;
  std::vector<double> h1(kHid), h2(kHid);
  for (int pt = 0; pt < n; pt += 17) {
    const float* x = &h_in[static_cast<size_t>(pt) * kIn];
    for (int j = 0; j < kHid; ++j) {
      double a = h_params[kB1 + j];
      for (int k = 0; k < kIn; ++k) a += static_cast<double>(x[k]) * h_params[kW1 + k * kHid + j];
      h1[j] = std::max(a, 0.0);
    }
    for (int j = 0; j < kHid; ++j) {
      double a = h_params[kB2 + j];
      for (int k = 0; k < kHid; ++k) a += h1[k] * h_params[kW2 + k * kHid + j];
      h2[j] = std::max(a, 0.0);
    }
    for (int j = 0; j < kOut; ++j) {
      double a = h_params[kB3 + j];
      for (int k = 0; k < kHid; ++k) a += h2[k] * h_params[kW3 + k * kOut + j];
      const double e = corpus::rel_err(h_out[static_cast<size_t>(pt) * kOut + j], a, 0.5);
      if (!(e <= worst)) worst = e;
    }
  }
  const bool pass = worst <= 1e-4;

  CORPUS_CHECK(cudaFree(d_in));
  CORPUS_CHECK(cudaFree(d_params));
  CORPUS_CHECK(cudaFree(d_out));
  return corpus::report("fused_mlp", pass, worst, gpu_ms);
}
