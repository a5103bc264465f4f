// No HIP has CUDA's cache-hinted stores (__stcg, __stcs, __stwb, __stwt; llm.c writes its
// outputs with __stcs). They become gpuport's shims, which store plainly on AMD (the cache
// policy is lost, the meaning kept) and call CUDA's own on NVIDIA; a value of another type
// converts to the pointee as CUDA's overloads convert it.
// REQUIRES: hip-compilers
// RUN: rm -rf %t && %gpuport translate --hip-version 5.2 --check -o %t %s > %t.log 2>&1
// The default target, HIP 6.4, for gfx1100 (HIP 6.4 has no NVIDIA platform headers here):
// RUN: rm -rf %t.64 && %gpuport translate --check --check-targets amd -o %t.64 %s 2>&1 | FileCheck --check-prefix=HIP64 %s
// HIP64: check gfx1100: compiles
// RUN: FileCheck --check-prefix=REPORT %s < %t.log
// RUN: grep -v -e CHECK -e RUN -e REPORT %t/cache-hinted-stores.cu | FileCheck %s
#include <cuda_runtime.h>
// CHECK: #include <hip/hip_runtime.h>
// CHECK: #if !defined(GPUPORT_STORE_HINTS)
// CHECK: #if defined(__HIP_PLATFORM_AMD__)
// CHECK: __device__ static inline void gpuport_stcs(T* p, V v) { *p = v; }
// CHECK: #else
// CHECK: __device__ static inline void gpuport_stcs(T* p, V v) { __stcs(p, v); }
__global__ void k(float* out, float4* out4, const float* in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __stcs(out + i, in[i] * 2.0f);
  // CHECK: gpuport_stcs(out + i, in[i] * 2.0f);
  __stcg(&out[i + n], 1.0);
  // CHECK: gpuport_stcg(&out[i + n], 1.0);
  __stwt(out4 + i, make_float4(0, 1, 2, 3));
  // CHECK: gpuport_stwt(out4 + i, make_float4(0, 1, 2, 3));
  __stwb(out + 2 * n + i, 0.5f);
  // CHECK: gpuport_stwb(out + 2 * n + i, 0.5f);
}
// REPORT-NOT: unsupported-api
// REPORT: check gfx1100: compiles
// REPORT: check nvidia: compiles
