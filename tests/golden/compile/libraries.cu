// cuBLAS, CUB, Thrust, cuFFT and cuRAND in one unit: the translation compiles for gfx1100
// against Debian 12's HIP 5.2 with Debian 13's hipBLAS 5.5, hipCUB/rocPRIM/rocThrust 5.7 and
// hipFFT 6.1 headers (rocThrust over CUDA's Thrust), and on HIP's NVIDIA platform with the hip*
// wrappers over CUDA 11.8's cuBLAS, CUB, Thrust and cuFFT.
// REQUIRES: hip-compilers, rocm-library-headers
// RUN: rm -rf %t && %gpuport translate --hip-version 5.2 --check -o %t %s > %t.log 2>&1
// The default target, HIP 6.4, for gfx1100 (HIP 6.4 has no NVIDIA platform headers here):
// RUN: rm -rf %t.64 && %gpuport translate --check --check-targets amd -o %t.64 %s 2>&1 | FileCheck --check-prefix=HIP64 %s
// HIP64: check gfx1100: compiles
// RUN: FileCheck --check-prefix=REPORT %s < %t.log
// RUN: grep -v -e CHECK -e RUN -e REPORT %t/libraries.cu | FileCheck %s
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <cub/cub.cuh>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <cufft.h>
#include <curand.h>
// CHECK: #include <hipblas/hipblas.h>
// CHECK: #include <hipcub/hipcub.hpp>
// CHECK: #include <hipfft/hipfft.h>
// CHECK: #include <hiprand/hiprand.h>
__global__ void scale(float* x, float s) { x[threadIdx.x] *= s; }
int main() {
  cublasHandle_t h;
  cublasCreate(&h);
  float *a, *b, *c, al = 1, be = 0;
  cudaMalloc(&a, 64 * sizeof(float));
  cudaMalloc(&b, 64 * sizeof(float));
  cudaMalloc(&c, 64 * sizeof(float));
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, 8, 8, 8, &al, a, 8, b, 8, &be, c, 8);
  // CHECK: hipblasSgemm(h, HIPBLAS_OP_N, HIPBLAS_OP_T, 8, 8, 8, &al, a, 8, b, 8, &be, c, 8);
  cublasDestroy(h);
  thrust::device_vector<float> v(16, 1.0f);
  const float total = thrust::reduce(v.begin(), v.end());
  size_t bytes = 0;
  cub::DeviceReduce::Sum(nullptr, bytes, a, c, 16);
  // CHECK: hipcub::DeviceReduce::Sum(nullptr, bytes, a, c, 16);
  cufftHandle plan;
  cufftPlan1d(&plan, 16, CUFFT_C2C, 1);
  cufftDestroy(plan);
  curandGenerator_t g;
  curandCreateGenerator(&g, CURAND_RNG_PSEUDO_DEFAULT);
  curandGenerateUniform(g, a, 64);
  curandDestroyGenerator(g);
  scale<<<1, 64>>>(a, total);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
// REPORT: libraries.cu: check gfx1100: compiles
// REPORT: libraries.cu: check nvidia: compiles
// REPORT: 0 errors, 0 warnings
// REPORT-SAME: checks: 2 passed, 0 failed
