// A cuRAND device-API Monte-Carlo kernel (curand_init, curand_uniform with curandState)
// becomes hipRAND code that compiles for gfx1100 and for HIP's NVIDIA platform.
// REQUIRES: hip-compilers
// RUN: rm -rf %t && %gpuport translate --hip-version 5.2 --check -o %t %s > %t.log 2>&1
// The default target, HIP 6.4, for gfx1100 (HIP 6.4 has no NVIDIA platform headers here):
// RUN: rm -rf %t.64 && %gpuport translate --check --check-targets amd -o %t.64 %s 2>&1 | FileCheck --check-prefix=HIP64 %s
// HIP64: check gfx1100: compiles
// RUN: FileCheck --check-prefix=REPORT %s < %t.log
// RUN: grep -v -e CHECK -e RUN -e REPORT %t/curand-kernel.cu | FileCheck %s
#include <cuda_runtime.h>
#include <curand_kernel.h>
// CHECK: #include <hiprand/hiprand_kernel.h>

__global__ void pi_hits(unsigned long long seed, int samples, unsigned long long* hits) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curandState st;
  curand_init(seed, id, 0, &st);
  // CHECK: hiprand_init(seed, id, 0, &st);
  unsigned long long mine = 0;
  for (int s = 0; s < samples; ++s) {
    float x = curand_uniform(&st), y = curand_uniform(&st);
    if (x * x + y * y <= 1.0f) ++mine;
  }
  atomicAdd(hits, mine);
}

int main() {
  unsigned long long* hits;
  cudaMalloc(&hits, sizeof(*hits));
  cudaMemset(hits, 0, sizeof(*hits));
  pi_hits<<<64, 128>>>(1234ull, 256, hits);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
// REPORT: curand-kernel.cu: check gfx1100: compiles
// REPORT: curand-kernel.cu: check nvidia: compiles
// REPORT: 0 errors, 0 warnings
