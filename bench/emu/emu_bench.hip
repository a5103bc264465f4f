// Emulator speed benchmark (not a test): a VALU-heavy kernel (a polynomial and integer hash per
// element, many instructions per load) and a memory-heavy one (a strided copy with little
// arithmetic). `gpuport run --stats -j N -- ./emu_bench` reports emulated lane-instructions per
// second for each; bench/emu_speed.py runs it at -j 1 and -j 2.
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdlib>

__global__ void valu_heavy(const float* in, float* out, unsigned* hash, int n, int rounds) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = in[i];
  unsigned h = static_cast<unsigned>(i) * 2654435761u;
  for (int r = 0; r < rounds; ++r) {
    x = x * 0.999f + 0.25f * x * x - 0.125f;
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    h += static_cast<unsigned>(r);
  }
  out[i] = x;
  hash[i] = h;
}

__global__ void memory_heavy(const float4* in, float4* out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = in[(i * 17) % n];
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1 << 18;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 64;
  float *in, *out;
  unsigned* hash;
  float4 *a, *b;
  hipMalloc(&in, n * sizeof(float));
  hipMalloc(&out, n * sizeof(float));
  hipMalloc(&hash, n * sizeof(unsigned));
  hipMalloc(&a, n * sizeof(float4));
  hipMalloc(&b, n * sizeof(float4));
  hipMemset(in, 0, n * sizeof(float));
  hipMemset(a, 0, n * sizeof(float4));
  hipLaunchKernelGGL(valu_heavy, dim3((n + 255) / 256), dim3(256), 0, 0, in, out, hash, n, rounds);
  hipLaunchKernelGGL(memory_heavy, dim3(256), dim3(256), 0, 0, a, b, n);
  hipDeviceSynchronize();
  unsigned h = 0;
  hipMemcpy(&h, hash + n - 1, sizeof h, hipMemcpyDeviceToHost);
  printf("emu_bench n=%d rounds=%d hash=%08x %s\n", n, rounds, h, hipGetErrorString(hipGetLastError()));
  return 0;
}
