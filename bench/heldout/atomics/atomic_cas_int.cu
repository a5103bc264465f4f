// Integer atomics and compare-and-swap loops: atomicMax/atomicMin on int,
// atomicOr/atomicAnd/atomicXor bit masks, atomicInc as a wrapping ring index,
// and atomicCAS loops building a float max and a double product.
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <vector>

#include "../include/heldout.cuh"

__device__ float atomic_max_float(float* addr, float val) {
  int* as_int = reinterpret_cast<int*>(addr);
  int old = *as_int, assumed;
  do {
    assumed = old;
    if (__int_as_float(assumed) >= val) break;
    old = atomicCAS(as_int, assumed, __float_as_int(val));
  } while (assumed != old);
  return __int_as_float(old);
}

__device__ double atomic_mul_double(double* addr, double val) {
  unsigned long long* p = reinterpret_cast<unsigned long long*>(addr);
  unsigned long long old = *p, assumed;
  do {
    assumed = old;
    old = atomicCAS(p, assumed, __double_as_longlong(__longlong_as_double(assumed) * val));
  } while (assumed != old);
  return __longlong_as_double(old);
}

struct Stats {
  int imax, imin;
  unsigned any_bits, all_bits, parity;
  unsigned ring;
  float fmax;
  double prod;
};

__global__ void reduce_atomics(const int* __restrict__ v, const float* __restrict__ f,
                               const double* __restrict__ m, int n, int nm, unsigned ring_size,
                               Stats* st, unsigned* ring_hits) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    atomicMax(&st->imax, v[i]);
    atomicMin(&st->imin, v[i]);
    atomicOr(&st->any_bits, 1u << (v[i] & 31));
    atomicAnd(&st->all_bits, unsigned(v[i]) | 0xffff0000u);
    atomicXor(&st->parity, unsigned(v[i]));
    unsigned slot = atomicInc(&st->ring, ring_size - 1);  // wraps to 0 after ring_size-1
    atomicAdd(&ring_hits[slot], 1u);
    atomic_max_float(&st->fmax, f[i]);
    if (i < nm) atomic_mul_double(&st->prod, m[i]);
  }
}

int main() {
  const int n = 1 << 20, nm = 4096;
  const unsigned ring_size = 1000;
  std::vector<int> v(n);
  std::vector<float> f(n);
  std::vector<double> m(nm);
  heldout::Lcg rng(909);
  for (int i = 0; i < n; ++i) {
    v[i] = int(rng.next()) / 2;  // signed values of both signs
    f[i] = rng.uniform(-50.0f, 50.0f);
  }
  for (auto& x : m) x = 1.0 + (rng.uniform() - 0.5) * 1e-3;

  int* d_v;
  float* d_f;
  double* d_m;
  Stats* d_st;
  unsigned* d_hits;
  CUDA_CHECK(cudaMalloc(&d_v, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_f, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_m, nm * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&d_st, sizeof(Stats)));
  CUDA_CHECK(cudaMalloc(&d_hits, ring_size * sizeof(unsigned)));
  CUDA_CHECK(cudaMemcpy(d_v, v.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_f, f.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_m, m.data(), nm * sizeof(double), cudaMemcpyHostToDevice));
  const Stats init = {INT_MIN, INT_MAX, 0u, 0xffffffffu, 0u, 0u, -INFINITY, 1.0};
  CUDA_CHECK(cudaMemcpy(d_st, &init, sizeof(Stats), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_hits, 0, ring_size * sizeof(unsigned)));

  heldout::GpuTimer timer;
  timer.start();
  reduce_atomics<<<128, 256>>>(d_v, d_f, d_m, n, nm, ring_size, d_st, d_hits);
  CUDA_CHECK_LAUNCH();
  timer.stop();
  Stats st;
  std::vector<unsigned> hits(ring_size);
  CUDA_CHECK(cudaMemcpy(&st, d_st, sizeof(Stats), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(hits.data(), d_hits, ring_size * sizeof(unsigned), cudaMemcpyDeviceToHost));

  Stats ref = init;
  double prod = 1.0;
  for (int i = 0; i < n; ++i) {
    ref.imax = std::max(ref.imax, v[i]);
    ref.imin = std::min(ref.imin, v[i]);
    ref.any_bits |= 1u << (v[i] & 31);
    ref.all_bits &= unsigned(v[i]) | 0xffff0000u;
    ref.parity ^= unsigned(v[i]);
    ref.fmax = std::max(ref.fmax, f[i]);
    if (i < nm) prod *= m[i];
  }
  long wrong = 0;
  wrong += st.imax != ref.imax;
  wrong += st.imin != ref.imin;
  wrong += st.any_bits != ref.any_bits;
  wrong += st.all_bits != ref.all_bits;
  wrong += st.parity != ref.parity;
  wrong += st.fmax != ref.fmax;
  wrong += st.ring != unsigned(n % ring_size);
  // n increments spread over the ring: each slot is hit floor or ceil of n/size times.
  for (unsigned k = 0; k < ring_size; ++k) wrong += hits[k] != n / ring_size + (k < n % ring_size ? 1u : 0u);
  heldout::ErrTracker err;
  err.add(st.prod, prod, 1e-11);
  if (wrong) std::fprintf(stderr, "%ld integer mismatches\n", wrong);

  CUDA_CHECK(cudaFree(d_v));
  CUDA_CHECK(cudaFree(d_f));
  CUDA_CHECK(cudaFree(d_m));
  CUDA_CHECK(cudaFree(d_st));
  CUDA_CHECK(cudaFree(d_hits));
  return heldout::report("atomic_cas_int", err.ok() && wrong == 0, err.max_rel, timer.ms());
}
