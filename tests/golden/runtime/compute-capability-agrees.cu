// The compute capability a translated program is told agrees with the level its device code is
// compiled as (sm_61's: shuffles, half arithmetic, __dp4a): host code that picks a kernel variant by
// it picks one the device code holds. HIP reports gfx1100 as 11.0, and llama.cpp, told so, ran its
// tensor-core (7.0) variants, whose device code had been compiled as a trap for sm_60.
// cudaGetDeviceProperties, cudaDeviceGetAttribute and cuDeviceComputeCapability answer 6.1 (the
// GPUPORT_DEVICE_CC shim); __CUDA_ARCH__ reads 610 in the device pass.
// REQUIRES: hip-compilers, hip64
// RUN: %gpuport translate %s > %t.cu 2> %t.err
// RUN: grep -v -e CHECK -e RUN -e EMU %t.cu | FileCheck %s
// RUN: rm -rf %t.run && mkdir %t.run && cd %t.run && %gpuport nvcc %s -o cc -lcuda
// RUN: %gpuport run %t.run/cc | FileCheck --check-prefix=EMU %s
// A build that names its architecture (CMake's --generate-code=arch=compute_70,code=...) gets
// device code for that one, and is told it: the sm_70 variant, on both sides.
// RUN: cd %t.run && %gpuport nvcc --generate-code=arch=compute_70,code=[compute_70,sm_70] %s -o cc70 -lcuda
// RUN: %gpuport run %t.run/cc70 | FileCheck --check-prefix=EMU70 %s
// EMU70: compute capability 7.0 (attribute 7.0, driver 7.0): variant 700
// EMU70: dot4: 70: PASS
// CHECK: #define GPUPORT_DEVICE_CC
// CHECK: gpuport_hipGetDeviceProperties(&prop, 0)
// CHECK: gpuport_hipDeviceGetAttribute(&major, hipDeviceAttributeComputeCapabilityMajor, 0)
// EMU: compute capability 6.1 (attribute 6.1, driver 6.1): variant 610
// EMU: dot4: 70: PASS
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>

#define MIN_CC_DP4A 610
#define CC_VOLTA 700

__global__ void dot4(int a, int b, int variant, int* out) {
#if __CUDA_ARCH__ >= CC_VOLTA
  *out = variant == 700 ? __dp4a(a, b, 0) : -1;  // the tensor-core generation's variant
#elif __CUDA_ARCH__ >= MIN_CC_DP4A
  *out = variant == 610 ? __dp4a(a, b, 0) : -1;
#else
  __trap();  // no device code for this level
#endif
}

int main() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  int major = 0, minor = 0, dmajor = 0, dminor = 0;
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0);
  cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0);
  cuInit(0);
  CUdevice dev;
  cuDeviceGet(&dev, 0);
  cuDeviceComputeCapability(&dmajor, &dminor, dev);
  const int cc = 100 * prop.major + 10 * prop.minor;
  const int variant = cc >= CC_VOLTA ? 700 : cc >= MIN_CC_DP4A ? 610 : 0;
  std::printf("compute capability %d.%d (attribute %d.%d, driver %d.%d): variant %d\n", prop.major, prop.minor, major, minor,
              dmajor, dminor, variant);
  int* out;
  cudaMallocManaged(&out, sizeof(int));
  dot4<<<1, 1>>>(0x01020304, 0x05060708, variant, out);  // 1*5 + 2*6 + 3*7 + 4*8
  const bool ok = cudaDeviceSynchronize() == cudaSuccess && *out == 70;
  std::printf("dot4: %d: %s\n", *out, ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
