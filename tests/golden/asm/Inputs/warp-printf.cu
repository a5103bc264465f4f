// Device printf from a kernel (vprintf: ints, long longs, doubles, chars,
// strings, '*' widths, %%) lifted from SASS and printed through the HIP device printf; the host
// prints its own expectation line beside each, and the test compares them.
#include <cstdio>

__global__ void report(const int* values, const double* halves, int n) {
  const int t = threadIdx.x;
  if (t < n) printf("thread %d value %d square %lld half %.2f name %s tag %c pct %% width [%*d]\n", t, values[t],
                    (long long)values[t] * values[t], halves[t], t % 2 ? "odd" : "even", 'a' + t, 5, t);
  if (t == 0) printf("no arguments\n");
}

int main() {
  const int n = 3;
  int h[n] = {7, -12, 100000};
  double halves[n];
  for (int t = 0; t < n; ++t) halves[t] = h[t] * 0.5;
  int* d;
  double* dh;
  cudaMalloc(&d, sizeof h);
  cudaMalloc(&dh, sizeof halves);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemcpy(dh, halves, sizeof halves, cudaMemcpyHostToDevice);
  report<<<1, 32>>>(d, dh, n);
  cudaDeviceSynchronize();
  for (int t = 0; t < n; ++t)
    printf("expect: thread %d value %d square %lld half %.2f name %s tag %c pct %% width [%*d]\n", t, h[t],
           (long long)h[t] * h[t], halves[t], t % 2 ? "odd" : "even", 'a' + t, 5, t);
  printf("DONE\n");
  return 0;
}
