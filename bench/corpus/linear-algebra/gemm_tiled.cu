// Shared-memory tiled SGEMM, C = A * B, all row-major, M = N = K = 512.
// Each 16x16 block computes a 64x64 tile of C; each thread accumulates a 4x4 register tile
// whose rows/columns are strided by 16 so that global stores stay coalesced and shared-memory
// reads are broadcasts or conflict-free. The K dimension is walked in 16-wide slabs that the
// block stages through shared memory.
#include "../include/corpus.cuh"

#include <algorithm>

constexpr int BM = 64;      // rows of C per block
constexpr int BN = 64;      // columns of C per block
constexpr int BK = 16;      // K slab staged in shared memory
constexpr int TDIM = 16;    // block is TDIM x TDIM threads
constexpr int TM = BM / TDIM;  // 4 rows per thread
constexpr int TN = BN / TDIM;  // 4 columns per thread

// Requires M % BM == 0, N % BN == 0, K % BK == 0 (static_assert in main).
__global__ void __launch_bounds__(TDIM * TDIM)
sgemm_tiled(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
            int M, int N, int K) {
  __shared__ float As[BM][BK + 1];  // +1: the row-wise fill below would otherwise conflict
  __shared__ float Bs[BK][BN];

  const int tx = threadIdx.x, ty = threadIdx.y;
  const int tid = ty * TDIM + tx;
  const int row0 = blockIdx.y * BM;
  const int col0 = blockIdx.x * BN;

  float acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;

  for (int k0 = 0; k0 < K; k0 += BK) {
    // Stage A[row0 .. row0+63][k0 .. k0+15] and B[k0 .. k0+15][col0 .. col0+63]:
    // 1024 floats each, 4 per thread, consecutive threads read consecutive addresses.
#pragma unroll
    for (int l = 0; l < (BM * BK) / (TDIM * TDIM); ++l) {
      const int idx = tid + l * TDIM * TDIM;
      const int r = idx / BK, c = idx % BK;
      As[r][c] = A[(size_t)(row0 + r) * K + k0 + c];
    }
#pragma unroll
    for (int l = 0; l < (BK * BN) / (TDIM * TDIM); ++l) {
      const int idx = tid + l * TDIM * TDIM;
      const int r = idx / BN, c = idx % BN;
      Bs[r][c] = B[(size_t)(k0 + r) * N + col0 + c];
    }
    __syncthreads();

#pragma unroll
    for (int k = 0; k < BK; ++k) {
      float a[TM], b[TN];
#pragma unroll
      for (int i = 0; i < TM; ++i) a[i] = As[ty + i * TDIM][k];
#pragma unroll
      for (int j = 0; j < TN; ++j) b[j] = Bs[k][tx + j * TDIM];
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
    __syncthreads();  // everyone is done with this slab before it is overwritten
  }

#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j)
      C[(size_t)(row0 + ty + i * TDIM) * N + col0 + tx + j * TDIM] = acc[i][j];
}

int main() {
  constexpr int kFullM = 512, kFullN = 512, kFullK = 512;
  constexpr int kEmuM = 256, kEmuN = 256, kEmuK = 128;  // emulated: 4 x 4 blocks
  static_assert(kFullM % BM == 0 && kFullN % BN == 0 && kFullK % BK == 0, "sizes must be multiples of the tile");
  static_assert(kEmuM % BM == 0 && kEmuN % BN == 0 && kEmuK % BK == 0, "sizes must be multiples of the tile");
  const int M = corpus::sized(kFullM, kEmuM), N = corpus::sized(kFullN, kEmuN), K = corpus::sized(kFullK, kEmuK);
  const int reps = corpus::reps(100);

  corpus::Rng rng(0x6e3311ull);
  std::vector<float> hA((size_t)M * K), hB((size_t)K * N), hC((size_t)M * N);
  for (auto& v : hA) v = rng.uniform(-1.0f, 1.0f);
  for (auto& v : hB) v = rng.uniform(-1.0f, 1.0f);

  float *dA = nullptr, *dB = nullptr, *dC = nullptr;
  CORPUS_CHECK(cudaMalloc(&dA, hA.size() * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&dB, hB.size() * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&dC, hC.size() * sizeof(float)));
  CORPUS_CHECK(cudaMemcpy(dA, hA.data(), hA.size() * sizeof(float), cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(dB, hB.data(), hB.size() * sizeof(float), cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemset(dC, 0, hC.size() * sizeof(float)));

  const dim3 block(TDIM, TDIM);
  const dim3 grid(N / BN, M / BM);
  sgemm_tiled<<<grid, block>>>(dA, dB, dC, M, N, K);  // warm-up
  CORPUS_CHECK_LAUNCH();
  CORPUS_CHECK(cudaDeviceSynchronize());

  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) {
    sgemm_tiled<<<grid, block>>>(dA, dB, dC, M, N, K);
    CORPUS_CHECK_LAUNCH();
  }
  const float gpu_ms = timer.stop();
  CORPUS_CHECK(cudaMemcpy(hC.data(), dC, hC.size() * sizeof(float), cudaMemcpyDeviceToHost));

  // CPU reference in double, i-k-j order so the inner loop streams through B and the row.
  std::vector<double> row(N);
  std::vector<float> ref((size_t)M * N);
  for (int i = 0; i < M; ++i) {
    std::fill(row.begin(), row.end(), 0.0);
    for (int k = 0; k < K; ++k) {
      const double a = hA[(size_t)i * K + k];
      const float* b = &hB[(size_t)k * N];
      for (int j = 0; j < N; ++j) row[j] += a * b[j];
    }
    for (int j = 0; j < N; ++j) ref[(size_t)i * N + j] = static_cast<float>(row[j]);
  }

  // Entries are sums of 512 products in [-1, 1] (typical magnitude ~7); a float dot product of
  // that length is accurate to ~1e-5 absolute. The floor of 1.0 compares entries near zero
  // absolutely, and 1e-3 leaves a wide margin for FMA contraction and summation order.
  const double err = corpus::max_rel_err(hC, ref, 1.0);
  const bool pass = err <= 1e-3;

  CORPUS_CHECK(cudaFree(dA));
  CORPUS_CHECK(cudaFree(dB));
  CORPUS_CHECK(cudaFree(dC));
  return corpus::report("gemm_tiled", pass, err, gpu_ms);
}
