// CUdeviceptr is an unsigned integer in CUDA: driver code adds byte offsets to it, rounds it up
// to an alignment, subtracts two of them and compares it with 0 (ggml's virtual memory pool).
// HIP's hipDeviceptr_t is a void*, on which C++ has no arithmetic, so CUdeviceptr becomes
// gpuport_hipDeviceptr_t: the shim's 64-bit integer type, which converts to HIP's pointer where
// a HIP call takes one (hipMemcpyHtoD) and is written through by the calls that return one
// (hipMalloc, hipMemAddressReserve). Casts to pointers and integers stay explicit, as in CUDA.
// (On NVIDIA it is hipDeviceptr_t, CUDA's integer; HIP's hipMalloc there takes no CUdeviceptr*,
// so cuMemAlloc's translation does not build for NVIDIA, with or without the shim.)
// REQUIRES: hip-compilers, hip64
// RUN: rm -rf %t && %gpuport translate --hip-version 5.2 --check --check-targets amd -o %t %s > %t.log 2>&1
// RUN: FileCheck --check-prefix=REPORT %s < %t.log
// RUN: grep -v -e CHECK -e RUN -e REPORT -e EMU %t/deviceptr-arithmetic.cu | FileCheck %s
// RUN: rm -rf %t.run && mkdir %t.run && cd %t.run && %gpuport nvcc %s -o devptr -lcuda
// RUN: %gpuport run %t.run/devptr | FileCheck --check-prefix=EMU %s
// EMU: devptr: aligned, 32 apart, 1552 2080: PASS
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>
// CHECK: #if !defined(GPUPORT_DEVICEPTR)

__global__ void add_index(float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += static_cast<float>(i);
}

static CUdeviceptr align_up(CUdeviceptr p, size_t alignment) {
  // CHECK: static gpuport_hipDeviceptr_t align_up(gpuport_hipDeviceptr_t p, size_t alignment) {
  return (p + alignment - 1) & ~(CUdeviceptr)(alignment - 1);
}

int main() {
  cuInit(0);
  CUdeviceptr base = 0;
  // CHECK: gpuport_hipDeviceptr_t base = 0;
  if (cuMemAlloc(&base, 4096) != CUDA_SUCCESS || base == 0) return 1;
  const CUdeviceptr first = align_up(base + 1, 256);
  const CUdeviceptr second = first + 32 * sizeof(float);
  float host[64];
  for (int i = 0; i < 64; ++i) host[i] = 1.0f;
  cuMemcpyHtoD(first, host, sizeof(host));
  add_index<<<1, 64>>>((float*)first, 64);
  cudaDeviceSynchronize();
  cuMemcpyDtoH(host, second, 32 * sizeof(float));
  float sum = 0;
  for (int i = 0; i < 32; ++i) sum += host[i];  // 32 + (32 + ... + 63) = 32 + 1520
  float all[64];
  cuMemcpyDtoH(all, first, sizeof(all));
  float total = 0;
  for (int i = 0; i < 64; ++i) total += all[i];  // 64 + 2016 = 2080
  const unsigned long long apart = (second - first) / sizeof(float);
  const bool aligned = (static_cast<unsigned long long>(first) % 256) == 0 && first > base;
  const bool pass = aligned && apart == 32 && sum == 1552.0f && total == 2080.0f;
  std::printf("devptr: %s, %llu apart, %.0f %.0f: %s\n", aligned ? "aligned" : "not aligned", apart, sum, total,
              pass ? "PASS" : "FAIL");
  cuMemFree(base);
  return pass ? 0 : 1;
}
// REPORT: check gfx1100: compiles
