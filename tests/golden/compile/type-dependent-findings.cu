// Findings that depend on declared types: atomicAdd on a __half2 (HIP 5.2 has no 16-bit float
// atomicAdd) is an error; a definition of the user's own atomicMin(float*, float) collides with
// HIP's (amd_hip_atomic.h declares it); `dim3 d = make_uint3(...)` compiles on CUDA only (HIP's
// dim3 has no uint3 constructor), so it becomes dim3(...). After removing the two errors the rest
// compiles for both vendors.
// REQUIRES: hip-compilers
// RUN: rm -rf %t && mkdir -p %t && not %gpuport translate %s 2>%t/report > %t/out.cu
// RUN: FileCheck --check-prefix=REPORT %s < %t/report
// RUN: grep -v -e CHECK -e RUN -e REPORT %t/out.cu | FileCheck %s
// RUN: sed -e '/atomicAdd(h2/d' -e '/^__device__ float atomicMin/,/^}/d' %s > %t/clean.cu
// RUN: %gpuport translate --hip-version 5.2 --check -o %t/clean-out %t/clean.cu 2>&1 | FileCheck --check-prefix=CLEAN %s
#include <cuda_runtime.h>
#include <cuda_fp16.h>
__device__ float atomicMin(float* address, float val) {
  int* a = (int*)address;
  int old = *a, assumed;
  do {
    assumed = old;
    old = atomicCAS(a, assumed, __float_as_int(fminf(val, __int_as_float(assumed))));
  } while (assumed != old);
  return __int_as_float(old);
}
__global__ void k(__half2* h2, float* f, __half2 v) {
  atomicAdd(h2, v);
  atomicAdd(f, 1.0f);
  // CHECK: atomicAdd(f, 1.0f);
}
void launch(unsigned n) {
  dim3 grid = make_uint3(n, 1, 1);
  // CHECK: dim3 grid = dim3(n, 1, 1);
  k<<<grid, 64>>>(nullptr, nullptr, __half2());
}
// REPORT: 14:18: error: HIP declares atomicMin(float*, ...) itself: this definition collides with it on AMD [redefines-hip-api]
// REPORT: 24:3: error: 'atomicAdd' on __half2 ('h2') has no HIP equivalent [unsupported-api]
// REPORT: 29:15: note: HIP's dim3 has no uint3 constructor: make_uint3(...) becomes dim3(...) [dim3-from-uint3]
// REPORT: 2 errors, 0 warnings, 1 notes
// CLEAN: check gfx1100: compiles
// CLEAN: check nvidia: compiles
