// A complete vector-add program (allocation, launch, synchronisation, error string) translates
// to HIP that compiles for gfx1100 with clang-19 and for HIP's NVIDIA platform with nvcc 11.8.
// REQUIRES: hip-compilers
// RUN: rm -rf %t && %gpuport translate --hip-version 5.2 --check -o %t %s > %t.log 2>&1
// The default target, HIP 6.4, for gfx1100 (HIP 6.4 has no NVIDIA platform headers here):
// RUN: rm -rf %t.64 && %gpuport translate --check --check-targets amd -o %t.64 %s 2>&1 | FileCheck --check-prefix=HIP64 %s
// HIP64: check gfx1100: compiles
// RUN: FileCheck --check-prefix=REPORT %s < %t.log
// RUN: grep -v -e CHECK -e RUN -e REPORT %t/vector-add.cu | FileCheck %s
#include <cuda_runtime.h>
#include <cstdio>
// CHECK: #include <hip/hip_runtime.h>

__global__ void vadd(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main() {
  const int n = 1 << 20;
  float *a, *b, *c;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  cudaMalloc(&c, n * sizeof(float));
  // CHECK: hipMalloc(&c, n * sizeof(float));
  vadd<<<(n + 255) / 256, 256>>>(a, b, c, n);
  // CHECK-NEXT: vadd<<<(n + 255) / 256, 256>>>(a, b, c, n);
  cudaError_t err = cudaDeviceSynchronize();
  // CHECK-NEXT: hipError_t err = hipDeviceSynchronize();
  std::printf("%s\n", cudaGetErrorString(err));
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  return err == cudaSuccess ? 0 : 1;
}
// REPORT: vector-add.cu: check gfx1100: compiles
// REPORT: vector-add.cu: check nvidia: compiles
// REPORT: 0 errors, 0 warnings
// REPORT-SAME: checks: 2 passed, 0 failed
