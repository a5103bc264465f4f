// Thrust: a key-value sort of 1M (key, index) pairs, a transform-reduce (sum of squares) and a
// count_if, on device_vectors. What a CUDA project's Thrust code looks like; the translation
// lands on rocThrust, which keeps Thrust's namespace and headers.
#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform_reduce.h>

#include <algorithm>
#include <numeric>

#include "../include/corpus.cuh"

struct square {
  __host__ __device__ double operator()(float x) const { return static_cast<double>(x) * x; }
};
struct negative {
  __host__ __device__ bool operator()(float x) const { return x < 0.0f; }
};

int main() {
  const int n = corpus::sized(1 << 20, 1 << 14);
  corpus::Rng rng(0x7487u);
  thrust::host_vector<float> h_keys(n);
  for (int i = 0; i < n; ++i) h_keys[i] = rng.uniform(-100.0f, 100.0f);

  thrust::device_vector<float> keys = h_keys;
  thrust::device_vector<int> index(n);
  thrust::sequence(index.begin(), index.end());

  corpus::GpuTimer timer;
  timer.start();
  thrust::sort_by_key(keys.begin(), keys.end(), index.begin());
  const double squares = thrust::transform_reduce(keys.begin(), keys.end(), square(), 0.0, thrust::plus<double>());
  const long negatives = thrust::count_if(keys.begin(), keys.end(), negative());
  const float gpu_ms = timer.stop();

  thrust::host_vector<float> got_keys = keys;
  thrust::host_vector<int> got_index = index;

  // CPU reference: the same sort (keys are distinct with overwhelming probability; ties keep
  // any order, so each index is checked through the key it points to), sum and count.
  std::vector<float> want(h_keys.begin(), h_keys.end());
  std::sort(want.begin(), want.end());
  long mismatches = 0;
  for (int i = 0; i < n; ++i) {
    if (got_keys[i] != want[i]) ++mismatches;
    if (got_index[i] < 0 || got_index[i] >= n || h_keys[got_index[i]] != got_keys[i]) ++mismatches;
  }
  double want_squares = 0.0;
  long want_negatives = 0;
  for (float x : want) {
    want_squares += static_cast<double>(x) * x;
    want_negatives += x < 0.0f;
  }
  if (negatives != want_negatives) ++mismatches;
  // Sum of n doubles in another order: relative error ~n * 1e-16.
  const double err = corpus::rel_err(squares, want_squares);
  if (mismatches) std::fprintf(stderr, "thrust_sort_reduce: %ld mismatches\n", mismatches);
  return corpus::report("thrust_sort_reduce", mismatches == 0 && err <= 1e-9, err, gpu_ms);
}
