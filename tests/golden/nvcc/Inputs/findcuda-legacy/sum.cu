#include <math_functions.h>  // CUDA's, first, as caffe's math_functions.cu has it
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>

#include <cstdio>

__global__ void square(int* v, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = v[i] * v[i];
}

int main() {
  const int n = 100;
  thrust::device_vector<int> v(n);
  thrust::sequence(v.begin(), v.end(), 1);
  square<<<(n + 63) / 64, 64>>>(thrust::raw_pointer_cast(v.data()), n);
  const int sum = thrust::reduce(v.begin(), v.end());
  std::printf("sum of squares 1..100: %d: %s\n", sum, sum == 338350 ? "PASS" : "FAIL");
  return sum == 338350 ? 0 : 1;
}
