// Kernel templates instantiated for several element types and block sizes:
// a shared-memory block reduction template<typename T, int BLOCK>, a
// templated grid-stride map, and a host-side template driver that launches
// kernel<T, BLOCK><<<...>>> for float, double, int and unsigned long long.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <type_traits>
#include <vector>

#include "../include/heldout.cuh"

template <typename T>
__global__ void affine_map(T* data, int n, T mul, T add) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    data[i] = data[i] * mul + add;
}

template <typename T, int BLOCK>
__global__ void block_sum(const T* __restrict__ in, T* __restrict__ partial, int n) {
  static_assert((BLOCK & (BLOCK - 1)) == 0, "BLOCK must be a power of two");
  __shared__ T s[BLOCK];
  T acc = T(0);
  for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += BLOCK * gridDim.x) acc += in[i];
  s[threadIdx.x] = acc;
  __syncthreads();
#pragma unroll
  for (int k = BLOCK / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
}

template <typename T>
struct Tolerance {
  static constexpr double value = std::is_integral<T>::value ? 0.0 : (sizeof(T) == 4 ? 1e-4 : 1e-12);
};

template <typename T, int BLOCK>
double run_case(int n, T mul, T add, heldout::GpuTimer& timer, bool& ok) {
  std::vector<T> h(n);
  for (int i = 0; i < n; ++i) h[i] = T((i * 37) % 101);  // non-negative, so unsigned T works too
  T *d_in, *d_part;
  const int blocks = 64;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(T)));
  CUDA_CHECK(cudaMalloc(&d_part, blocks * sizeof(T)));
  CUDA_CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  timer.start();
  affine_map<T><<<blocks, BLOCK>>>(d_in, n, mul, add);
  CUDA_CHECK_LAUNCH();
  block_sum<T, BLOCK><<<blocks, BLOCK>>>(d_in, d_part, n);
  CUDA_CHECK_LAUNCH();
  timer.stop();
  std::vector<T> part(blocks);
  CUDA_CHECK(cudaMemcpy(part.data(), d_part, blocks * sizeof(T), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_part));

  T got = T(0);
  for (T p : part) got += p;
  double want = 0.0;
  for (T v : h) want += double(v * mul + add);
  const double e = heldout::rel_err(double(got), want, 1.0);
  if (!(e <= Tolerance<T>::value)) {
    ok = false;
    std::fprintf(stderr, "case sizeof=%zu BLOCK=%d got=%g want=%g\n", sizeof(T), BLOCK, double(got), want);
  }
  return e;
}

int main() {
  const int n = 1 << 20;
  heldout::GpuTimer timer;
  bool ok = true;
  double worst = 0.0;
  worst = std::fmax(worst, run_case<float, 256>(n, 0.5f, 0.25f, timer, ok));
  worst = std::fmax(worst, run_case<double, 128>(n, 1.5, -0.75, timer, ok));
  worst = std::fmax(worst, run_case<int, 512>(n, 3, 7, timer, ok));
  worst = std::fmax(worst, run_case<unsigned long long, 64>(n, 5ull, 1ull, timer, ok));
  return heldout::report("template_kernels", ok, worst, timer.ms());
}
