// hipRAND 6.4 over rocRAND 6.4 (Debian sid's libraries, their own gfx1100 kernels) on the emulator,
// each result checked on the CPU: the host API's device generators against rocRAND's host
// generators with the same seed (the same sequence, computed on the CPU: equal bit for bit), and
// the device API (hiprand_kernel.h) in a kernel of the program's own against the rocRAND
// functions it wraps (host and device functions both), called on the CPU.
#include <hip/hip_runtime.h>
#include <hiprand/hiprand.h>
#include <hiprand/hiprand_kernel.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "hip_check.h"

__global__ void per_thread_uniforms(unsigned long long seed, float* out, int per_thread) {
  const int id = blockIdx.x * blockDim.x + threadIdx.x;
  hiprandStatePhilox4_32_10_t state;
  hiprand_init(seed, id, 0, &state);
  for (int k = 0; k < per_thread; ++k) out[id * per_thread + k] = hiprand_uniform(&state);
}

// Device generator output vs the host generator's for one generator type and distribution: equal
// bit for bit, or, where the distribution goes through log, sin and cos (normal), within
// `tolerance` (the GPU's math library and the host's round differently, on a real GPU too).
template <typename T, typename Generate>
static int compare(hiprandRngType_t type, size_t n, Generate generate, double tolerance = 0) {
  hiprandGenerator_t device = nullptr, host = nullptr;
  if (hiprandCreateGenerator(&device, type) != HIPRAND_STATUS_SUCCESS ||
      hiprandCreateGeneratorHost(&host, type) != HIPRAND_STATUS_SUCCESS)
    return -1;
  if (type != HIPRAND_RNG_QUASI_SOBOL32) {
    hiprandSetPseudoRandomGeneratorSeed(device, 20261206);
    hiprandSetPseudoRandomGeneratorSeed(host, 20261206);
  }
  T* d = nullptr;
  std::vector<T> on_device(n), on_host(n);
  if (hipMalloc(&d, n * sizeof(T)) != hipSuccess || generate(device, d, n) != HIPRAND_STATUS_SUCCESS ||
      hipMemcpy(on_device.data(), d, n * sizeof(T), hipMemcpyDeviceToHost) != hipSuccess ||
      generate(host, on_host.data(), n) != HIPRAND_STATUS_SUCCESS)
    return -1;
  int differ = 0;
  for (size_t i = 0; i < n; ++i)
    differ += tolerance == 0 ? std::memcmp(&on_device[i], &on_host[i], sizeof(T)) != 0
                             : std::fabs(double(on_device[i]) - double(on_host[i])) > tolerance * std::fmax(1.0, std::fabs(double(on_host[i])));
  (void)hipFree(d);
  hiprandDestroyGenerator(device);
  hiprandDestroyGenerator(host);
  return differ;
}

int main() {
  const size_t n = 1 << 15;
  const int xorwow = compare<float>(HIPRAND_RNG_PSEUDO_XORWOW, n, [](hiprandGenerator_t g, float* p, size_t m) {
    return hiprandGenerateUniform(g, p, m);
  });
  const int philox = compare<float>(HIPRAND_RNG_PSEUDO_PHILOX4_32_10, n, [](hiprandGenerator_t g, float* p, size_t m) {
    return hiprandGenerateNormal(g, p, m, 1.5f, 0.25f);
  }, 1e-5);
  const int mrg = compare<double>(HIPRAND_RNG_PSEUDO_MRG32K3A, n, [](hiprandGenerator_t g, double* p, size_t m) {
    return hiprandGenerateUniformDouble(g, p, m);
  });
  const int bits = compare<unsigned>(HIPRAND_RNG_PSEUDO_MTGP32, n, [](hiprandGenerator_t g, unsigned* p, size_t m) {
    return hiprandGenerate(g, p, m);
  });
  std::printf("device vs host generators: xorwow %d, philox normal (within 1e-5) %d, mrg32k3a double %d, mtgp32 bits %d differ\n", xorwow,
              philox, mrg, bits);
  EXPECT(xorwow == 0 && philox == 0 && mrg == 0 && bits == 0);

  constexpr int threads = 256, per_thread = 8;
  float* d = nullptr;
  EXPECT_OK(hipMalloc(&d, threads * per_thread * sizeof(float)));
  per_thread_uniforms<<<threads / 64, 64>>>(42, d, per_thread);
  EXPECT_OK(hipGetLastError());
  std::vector<float> got(threads * per_thread);
  EXPECT_OK(hipMemcpy(got.data(), d, got.size() * sizeof(float), hipMemcpyDeviceToHost));
  int kernel_differ = 0;
  for (int id = 0; id < threads; ++id) {
    rocrand_state_philox4x32_10 state;  // what hiprandStatePhilox4_32_10_t is on AMD
    rocrand_init(42, id, 0, &state);
    for (int k = 0; k < per_thread; ++k) {
      const float want = rocrand_uniform(&state);
      kernel_differ += std::memcmp(&want, &got[id * per_thread + k], sizeof(float)) != 0;
    }
  }
  std::printf("device API in the program's kernel vs the CPU: %d differ\n", kernel_differ);
  EXPECT(kernel_differ == 0);
  EXPECT_OK(hipFree(d));
  return finish("hiprand_check");
}
