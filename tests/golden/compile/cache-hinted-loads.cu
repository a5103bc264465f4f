// HIP 5.2 declares __ldca/__ldcg/__ldcs only for __half and __half2, so __ldcs(const float*)
// did not compile for gfx1100; the cache-hinted loads become __ldg, which HIP has for every
// type (a plain load on AMD). __ldcv (a volatile load) stays an error.
// REQUIRES: hip-compilers
// RUN: rm -rf %t && %gpuport translate --hip-version 5.2 --check -o %t %s > %t.log 2>&1
// The default target, HIP 6.4, for gfx1100 (HIP 6.4 has no NVIDIA platform headers here):
// RUN: rm -rf %t.64 && %gpuport translate --check --check-targets amd -o %t.64 %s 2>&1 | FileCheck --check-prefix=HIP64 %s
// HIP64: check gfx1100: compiles
// RUN: FileCheck --check-prefix=REPORT %s < %t.log
// RUN: grep -v -e CHECK -e RUN -e REPORT %t/cache-hinted-loads.cu | FileCheck %s
#include <cuda_runtime.h>
#include <cuda_fp16.h>
__global__ void k(const float* a, const int4* b, const __half* h, float* out, int4* out4) {
  out[0] = __ldcs(a) + __ldcg(a + 1) + __ldca(a + 2) + __ldlu(a + 3) + __half2float(__ldcs(h));
  // CHECK: out[0] = __ldg(a) + __ldg(a + 1) + __ldg(a + 2) + __ldg(a + 3) + __half2float(__ldg(h));
  out4[0] = __ldcs(b);
  // CHECK: out4[0] = __ldg(b);
}
// REPORT: check gfx1100: compiles
// REPORT: check nvidia: compiles
