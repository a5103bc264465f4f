// HIP 5.2's atomicInc/atomicDec call LLVM intrinsics (llvm.amdgcn.atomic.inc/dec) by asm label,
// which LLVM 17 and later removed: with Debian 12's HIP and clang-19 a program using them does
// not link for gfx1100. gpuport adds a shim over clang's builtins (as HIP 5.7 does), for HIP
// before 5.7 only; the translation links for gfx1100 and compiles for NVIDIA.
// REQUIRES: hip-compilers
// RUN: rm -rf %t && %gpuport translate --hip-version 5.2 --check -o %t %s > %t.log 2>&1
// The default target, HIP 6.4, for gfx1100 (HIP 6.4 has no NVIDIA platform headers here):
// RUN: rm -rf %t.64 && %gpuport translate --check --check-targets amd -o %t.64 %s 2>&1 | FileCheck --check-prefix=HIP64 %s
// HIP64: check gfx1100: compiles
// RUN: FileCheck --check-prefix=REPORT %s < %t.log
// RUN: grep -v -e CHECK -e RUN -e REPORT %t/atomic-inc-dec.cu | FileCheck %s
// RUN: clang++-19 -x hip --offload-arch=gfx1100 --rocm-path=/usr --rocm-device-lib-path=%devicelibs %t/atomic-inc-dec.cu -o %t/a.out -lamdhip64
#include <cuda_runtime.h>
// CHECK: #include <hip/hip_runtime.h>
// CHECK-NEXT: #if defined(__HIP_PLATFORM_AMD__) && HIP_VERSION < 50700000 && !defined(GPUPORT_AMD_ATOMIC_INC_DEC)
// CHECK: #define atomicInc gpuport_atomicInc
__global__ void ring(unsigned* head, unsigned* tail, unsigned n) {
  atomicInc(head, n - 1);
  atomicDec(tail, n - 1);
}
int main() {
  unsigned* d = nullptr;
  cudaMalloc(&d, 2 * sizeof(unsigned));
  ring<<<1, 64>>>(d, d + 1, 16);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
// REPORT: check gfx1100: compiles
// REPORT: check nvidia: compiles
