// Scaled dot-product attention for small heads, O = softmax(Q K^T / sqrt(d)) V, with 16 heads,
// sequence 256, head dim 64 (float). One block per (head, tile of 16 query rows): the Q tile is
// kept in shared memory, K and V pass through a padded 64 x 65 shared tile, the full 16 x 256
// score rows stay in shared memory and are softmaxed by warp-shuffle reductions, then P V is
// accumulated in registers. CPU reference in double.
#include "../include/corpus.cuh"

#include <algorithm>
#include <cfloat>

namespace {

constexpr int kHeads = 16;
constexpr int kSeq = 256;
constexpr int kDim = 64;
constexpr int kQTile = 16;    // query rows per block
constexpr int kKTile = 64;    // keys per K/V tile
constexpr int kThreads = 128;
constexpr int kReps = 100;

__global__ void attention_kernel(const float* __restrict__ q, const float* __restrict__ k,
                                 const float* __restrict__ v, float* __restrict__ o, float scale) {
  __shared__ float sq[kQTile][kDim];
  __shared__ float kv[kKTile][kDim + 1];  // +1: rows of K/V read column-wise without bank conflicts
  __shared__ float sp[kQTile][kSeq];      // scores, then probabilities
  __shared__ float row_inv[kQTile];
  const int head = blockIdx.y;
  const int q0 = blockIdx.x * kQTile;
  const size_t head_off = static_cast<size_t>(head) * kSeq * kDim;
  const int tid = threadIdx.x;

  for (int i = tid; i < kQTile * kDim; i += blockDim.x)
    sq[i / kDim][i % kDim] = q[head_off + static_cast<size_t>(q0 + i / kDim) * kDim + i % kDim] * scale;

  // S = (Q * scale) K^T, one 64-key tile at a time.
  for (int kt = 0; kt < kSeq; kt += kKTile) {
    __syncthreads();  // previous tile fully consumed (and sq written on the first pass)
    for (int i = tid; i < kKTile * kDim; i += blockDim.x)
      kv[i / kDim][i % kDim] = k[head_off + static_cast<size_t>(kt + i / kDim) * kDim + i % kDim];
    __syncthreads();
    for (int e = tid; e < kQTile * kKTile; e += blockDim.x) {
      const int r = e / kKTile, c = e % kKTile;
      float acc = 0.0f;
#pragma unroll 16
      for (int d = 0; d < kDim; ++d) acc += sq[r][d] * kv[c][d];
      sp[r][kt + c] = acc;
    }
  }
  __syncthreads();

  // Row softmax: each warp takes rows warp, warp + nwarps, ...
  const int lane = tid % warpSize;
  const int warp = tid / warpSize;
  const int nwarps = blockDim.x / warpSize;
  for (int r = warp; r < kQTile; r += nwarps) {
    float m = -FLT_MAX;
    for (int c = lane; c < kSeq; c += warpSize) m = fmaxf(m, sp[r][c]);
    for (int off = warpSize / 2; off > 0; off /= 2) m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, off));
    float s = 0.0f;
    for (int c = lane; c < kSeq; c += warpSize) {
      const float p = expf(sp[r][c] - m);
      sp[r][c] = p;
      s += p;
    }
    for (int off = warpSize / 2; off > 0; off /= 2) s += __shfl_xor_sync(0xffffffff, s, off);
    if (lane == 0) row_inv[r] = 1.0f / s;
  }

  // O = P V: thread owns column d = tid % 64 of rows r0, r0 + 2, ..., r0 + 14.
  constexpr int kRowStep = kThreads / kDim;          // 2
  constexpr int kRowsPerThread = kQTile / kRowStep;  // 8
  const int d = tid % kDim;
  const int r0 = tid / kDim;
  float acc[kRowsPerThread] = {};
  for (int kt = 0; kt < kSeq; kt += kKTile) {
    __syncthreads();  // softmax done / previous V tile consumed
    for (int i = tid; i < kKTile * kDim; i += blockDim.x)
      kv[i / kDim][i % kDim] = v[head_off + static_cast<size_t>(kt + i / kDim) * kDim + i % kDim];
    __syncthreads();
    for (int c = 0; c < kKTile; ++c) {
      const float vd = kv[c][d];
#pragma unroll
      for (int i = 0; i < kRowsPerThread; ++i) acc[i] += sp[r0 + i * kRowStep][kt + c] * vd;
    }
  }
#pragma unroll
  for (int i = 0; i < kRowsPerThread; ++i) {
    const int r = r0 + i * kRowStep;
    o[head_off + static_cast<size_t>(q0 + r) * kDim + d] = acc[i] * row_inv[r];
  }
}

}  // namespace

int main() {
  const int heads = corpus::sized(kHeads, 2);  // emulated: 2 x 16 blocks
  const int reps = corpus::reps(kReps);
  const size_t n = static_cast<size_t>(heads) * kSeq * kDim;
  std::vector<float> h_q(n), h_k(n), h_v(n);
  corpus::Rng rng(0xA77E);
  for (auto& x : h_q) x = rng.uniform(-1.0f, 1.0f);
  for (auto& x : h_k) x = rng.uniform(-1.0f, 1.0f);
  for (auto& x : h_v) x = rng.uniform(-1.0f, 1.0f);
  const float scale = 1.0f / std::sqrt(static_cast<float>(kDim));

  float *d_q, *d_k, *d_v, *d_o;
  CORPUS_CHECK(cudaMalloc(&d_q, n * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&d_k, n * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&d_v, n * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&d_o, n * sizeof(float)));
  CORPUS_CHECK(cudaMemcpy(d_q, h_q.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(d_k, h_k.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(d_v, h_v.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  const dim3 grid(kSeq / kQTile, heads);
  attention_kernel<<<grid, kThreads>>>(d_q, d_k, d_v, d_o, scale);  // warm-up
  CORPUS_CHECK_LAUNCH();
  CORPUS_CHECK(cudaDeviceSynchronize());

  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) {
    attention_kernel<<<grid, kThreads>>>(d_q, d_k, d_v, d_o, scale);
    CORPUS_CHECK_LAUNCH();
  }
  const float gpu_ms = timer.stop();

  std::vector<float> h_o(n);
  CORPUS_CHECK(cudaMemcpy(h_o.data(), d_o, n * sizeof(float), cudaMemcpyDeviceToHost));

  std::vector<double> want(n), got(h_o.begin(), h_o.end());
  std::vector<double> s(kSeq);
  for (int h = 0; h < heads; ++h) {
    const size_t off = static_cast<size_t>(h) * kSeq * kDim;
    for (int i = 0; i < kSeq; ++i) {
      double m = -1e300;
      for (int j = 0; j < kSeq; ++j) {
        double acc = 0.0;
        for (int d = 0; d < kDim; ++d) acc += double(h_q[off + i * kDim + d]) * h_k[off + j * kDim + d];
        s[j] = acc / std::sqrt(static_cast<double>(kDim));
        m = std::max(m, s[j]);
      }
      double sum = 0.0;
      for (int j = 0; j < kSeq; ++j) {
        s[j] = std::exp(s[j] - m);
        sum += s[j];
      }
      for (int d = 0; d < kDim; ++d) {
        double acc = 0.0;
        for (int j = 0; j < kSeq; ++j) acc += s[j] * h_v[off + j * kDim + d];
        want[off + i * kDim + d] = acc / sum;
      }
    }
  }
  // Tolerance 1e-3 relative with floor 1e-2: outputs are weighted means of uniform(-1, 1)
  // values (typically |o| ~ 0.05), float dot products of 64 and sums of 256 terms give ~1e-6
  // absolute error, so near-zero outputs are judged against 1e-2 rather than relatively.
  const double err = corpus::max_rel_err(got, want, 1e-2);

  CORPUS_CHECK(cudaFree(d_q));
  CORPUS_CHECK(cudaFree(d_k));
  CORPUS_CHECK(cudaFree(d_v));
  CORPUS_CHECK(cudaFree(d_o));
  return corpus::report("attention_small", err < 1e-3, err, gpu_ms);
}
