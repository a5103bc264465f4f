// __CUDA_ARCH__ for its value where no comparison with a number decides it in place: compared
// with another macro (ggml: `__CUDA_ARCH__ >= CC_PASCAL`) or in a macro's body (ggml's
// NO_DEVICE_CODE passes it to a function). It becomes GPUPORT_CUDA_ARCH, which gpuport's shim
// defines as 610 in gfx1100's device passes (sm_61's features, as for a literal comparison), 0 in
// the host pass, and __CUDA_ARCH__ on NVIDIA. On the emulator the device pass reads 610.
// REQUIRES: hip-compilers, hip64
// RUN: rm -rf %t && %gpuport translate --hip-version 5.2 --check -o %t %s > %t.log 2>&1
// RUN: FileCheck --check-prefix=REPORT %s < %t.log
// RUN: grep -v -e CHECK -e RUN -e REPORT -e EMU %t/cuda-arch-macro-value.cu | FileCheck %s
// RUN: rm -rf %t.run && mkdir %t.run && cd %t.run && %gpuport nvcc %s -o arch
// RUN: %gpuport run %t.run/arch | FileCheck --check-prefix=EMU %s
// EMU: device: fp16 1, volta 0, arch 610; host: fp16 0: PASS
#include <cstdio>
#include <cuda_runtime.h>
// CHECK: #if !defined(GPUPORT_CUDA_ARCH)
// CHECK: #define GPUPORT_CUDA_LEVEL 610
// CHECK: #define GPUPORT_CUDA_ARCH GPUPORT_CUDA_LEVEL

#define CC_PASCAL 600
#define CC_VOLTA 700
#if __CUDA_ARCH__ >= CC_PASCAL
// CHECK: #if GPUPORT_CUDA_ARCH >= CC_PASCAL
#define FP16_AVAILABLE
#endif

#ifdef __CUDA_ARCH__
#define ARCH_OF_THIS_PASS __CUDA_ARCH__
// CHECK: #define ARCH_OF_THIS_PASS GPUPORT_CUDA_ARCH
#else
#define ARCH_OF_THIS_PASS 0
#endif

__global__ void probe(int* out) {
#ifdef FP16_AVAILABLE
  out[0] = 1;
#else
  out[0] = 0;
#endif
#if __CUDA_ARCH__ >= CC_VOLTA
  out[1] = 1;
#else
  out[1] = 0;
#endif
  out[2] = ARCH_OF_THIS_PASS;
}

int main() {
  int* out;
  cudaMallocManaged(&out, 3 * sizeof(int));
  probe<<<1, 1>>>(out);
  cudaDeviceSynchronize();
#ifdef FP16_AVAILABLE
  const int host_fp16 = 1;
#else
  const int host_fp16 = 0;
#endif
  const bool ok = out[0] == 1 && out[1] == 0 && out[2] == 610 && host_fp16 == 0;
  std::printf("device: fp16 %d, volta %d, arch %d; host: fp16 %d: %s\n", out[0], out[1], out[2], host_fp16, ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
// REPORT: note: __CUDA_ARCH__ for its value: GPUPORT_CUDA_ARCH
// REPORT: check gfx1100: compiles
// REPORT: check nvidia: compiles
