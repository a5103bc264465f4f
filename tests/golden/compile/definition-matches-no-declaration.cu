// A qualified definition whose parameters match no declaration of the name in its namespace
// (cuSZ's spline3.inl declares spline3d_layout2_interpolate with five parameters and defines it
// with six): nvcc's front end, like GCC, takes it as a new overload; clang rejects it. The
// translation moves the definition into its namespace on the same line, where it declares that
// overload, and says so; a definition that matches a declaration is left as written. The program
// builds with gpuport nvcc and runs on the emulator.
// REQUIRES: hip-compilers, hip64
// RUN: %gpuport translate %s > %t.cu 2> %t.err
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
// RUN: grep -v -e CHECK -e RUN -e REPORT -e EMU %t.cu | FileCheck %s
// RUN: rm -rf %t.run && mkdir %t.run && cd %t.run && %gpuport nvcc %s -o interp
// RUN: %gpuport run %t.run/interp | FileCheck --check-prefix=EMU %s
// REPORT: definition-matches-no-declaration.cu:[[@LINE+20]]:30: warning: out-of-line definition of 'lib::detail::interpolate' (3 parameters) matches no declaration in 'lib::detail' (2): nvcc and GCC take it as a new overload, clang rejects it; defined inside its namespace instead [definition-mismatch]
// REPORT-NOT: definition-mismatch
// CHECK: namespace lib { namespace detail { template <typename T, int N>
// CHECK-NEXT: __device__ void interpolate(volatile T data[N], int size, T scale) {
// CHECK: } }
// CHECK: __device__ T lib::detail::twice(T x) {
// EMU: interpolated: 0 3 6 9 12 15 18 21: PASS
#include <cstdio>
#include <cuda_runtime.h>

namespace lib {
namespace detail {
template <typename T, int N>
__device__ void interpolate(volatile T data[N], T scale);
template <typename T>
__device__ T twice(T x);
}  // namespace detail
}  // namespace lib

template <typename T, int N>
__device__ void lib::detail::interpolate(volatile T data[N], int size, T scale) {
  for (int i = threadIdx.x; i < size; i += blockDim.x) data[i] = data[i] * scale;
}

template <typename T>
__device__ T lib::detail::twice(T x) {
  return x + x;
}

__global__ void run(float* v) {
  __shared__ float s[8];
  s[threadIdx.x] = v[threadIdx.x];
  lib::detail::interpolate<float, 8>(s, 8, lib::detail::twice(1.5f));
  v[threadIdx.x] = s[threadIdx.x];
}

int main() {
  float h[8] = {0, 1, 2, 3, 4, 5, 6, 7}, *d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  run<<<1, 8>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int i = 0; i < 8; ++i) ok = ok && h[i] == 3.0f * i;
  std::printf("interpolated: %g %g %g %g %g %g %g %g: %s\n", h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
