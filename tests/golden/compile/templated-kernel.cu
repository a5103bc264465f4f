// A templated kernel with a functor, launched for two element types through a host template,
// translates to HIP that compiles for both targets (explicit template arguments in <<<>>>
// launches are kept).
// REQUIRES: hip-compilers
// RUN: rm -rf %t && %gpuport translate --hip-version 5.2 --check -o %t %s > %t.log 2>&1
// The default target, HIP 6.4, for gfx1100 (HIP 6.4 has no NVIDIA platform headers here):
// RUN: rm -rf %t.64 && %gpuport translate --check --check-targets amd -o %t.64 %s 2>&1 | FileCheck --check-prefix=HIP64 %s
// HIP64: check gfx1100: compiles
// RUN: FileCheck --check-prefix=REPORT %s < %t.log
// RUN: grep -v -e CHECK -e RUN -e REPORT %t/templated-kernel.cu | FileCheck %s
#include <cuda_runtime.h>

struct Square {
  template <typename T> __device__ T operator()(T x) const { return x * x; }
};

template <typename T, typename Op>
__global__ void map(T* data, int n, Op op) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    data[i] = op(data[i]);
}

template <typename T>
cudaError_t run(T* data, int n) {
  // CHECK: hipError_t run(T* data, int n) {
  map<T, Square><<<32, 256>>>(data, n, Square{});
  // CHECK-NEXT: map<T, Square><<<32, 256>>>(data, n, Square{});
  return cudaGetLastError();
  // CHECK-NEXT: return hipGetLastError();
}

template cudaError_t run<float>(float*, int);
template cudaError_t run<double>(double*, int);
// CHECK: template hipError_t run<float>(float*, int);
// REPORT: templated-kernel.cu: check gfx1100: compiles
// REPORT: templated-kernel.cu: check nvidia: compiles
// REPORT: 0 errors, 0 warnings
