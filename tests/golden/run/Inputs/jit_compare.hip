// Kernels for run/jit-compare.test: a histogram of global atomics (workgroups must come in one
// order on both tiers), an f64 sum through LDS, one kernel that prints (a hostcall) and, with
// the argument "clock", one that stores the device's clock (clock64), which no two runs share;
// with "spin", one that never ends (for --timeout).
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstring>
#include <vector>

__global__ void histogram(const unsigned* in, unsigned* bins, unsigned* order, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(&bins[in[i] % 16], 1u);
    // Which thread came first: an order the runs must share.
    if (threadIdx.x == 0) order[blockIdx.x] = atomicAdd(&bins[16], 1u);
  }
}

__global__ void sum_f64(const double* in, double* out, int n) {
  __shared__ double part[256];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  part[threadIdx.x] = i < n ? in[i] * in[i] + 0.5 : 0.0;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = part[0];
}

__global__ void hello(int x) {
  if (threadIdx.x == 0) printf("hello from the device: %d\n", x);
}

__global__ void stamp(unsigned long long* out) { out[threadIdx.x] = clock64() + threadIdx.x; }

__global__ void spin(volatile unsigned* flag) {
  while (*flag == 0) {
  }
}

int main(int argc, char** argv) {
  const int n = 4096;
  std::vector<unsigned> in(n);
  std::vector<double> d(n);
  for (int i = 0; i < n; ++i) {
    in[i] = static_cast<unsigned>(i) * 2654435761u;
    d[i] = 1.0 / (i + 1);
  }
  unsigned *din, *bins, *order;
  double *dd, *sums;
  (void)hipMalloc(&din, n * 4);
  (void)hipMalloc(&bins, 17 * 4);
  (void)hipMalloc(&order, 16 * 4);
  (void)hipMalloc(&dd, n * 8);
  (void)hipMalloc(&sums, 16 * 8);
  (void)hipMemcpy(din, in.data(), n * 4, hipMemcpyHostToDevice);
  (void)hipMemcpy(dd, d.data(), n * 8, hipMemcpyHostToDevice);
  (void)hipMemset(bins, 0, 17 * 4);
  histogram<<<16, 256>>>(din, bins, order, n);
  sum_f64<<<16, 256>>>(dd, sums, n);
  hello<<<1, 32>>>(7);
  unsigned h[17];
  double s[16], total = 0, want = 0;
  (void)hipMemcpy(h, bins, sizeof h, hipMemcpyDeviceToHost);
  (void)hipMemcpy(s, sums, sizeof s, hipMemcpyDeviceToHost);
  for (double x : s) total += x;
  for (double x : d) want += x * x + 0.5;
  unsigned counted = 0;
  for (int b = 0; b < 16; ++b) counted += h[b];
  std::printf("histogram: %u values, %u workgroups: %s\n", counted, h[16], counted == n && h[16] == 16 ? "PASS" : "FAIL");
  std::printf("sum of squares: %.6f: %s\n", total, std::abs(total - want) < 1e-9 ? "PASS" : "FAIL");
  if (argc > 1 && std::strcmp(argv[1], "clock") == 0) {
    unsigned long long* t;
    (void)hipMalloc(&t, 64 * 8);
    stamp<<<1, 64>>>(t);
    (void)hipDeviceSynchronize();
    std::printf("clock stamped\n");
  }
  if (argc > 1 && std::strcmp(argv[1], "spin") == 0) {
    spin<<<1, 32>>>(bins);  // bins[0] is not 0: unsigned* zero first
    (void)hipMemset(bins, 0, 4);
    spin<<<1, 32>>>(bins);
    (void)hipDeviceSynchronize();
    std::printf("spin ended\n");
  }
  return 0;
}
