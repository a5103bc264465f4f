// Translating already translated code changes nothing: a second run over the first run's
// output gives identical bytes and reports no rewrites.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %gpuport translate --launch ggl %s > %t/once.cu
// RUN: %gpuport translate --launch ggl %t/once.cu > %t/twice.cu 2> %t/twice.err
// RUN: diff %t/once.cu %t/twice.cu
// RUN: FileCheck --check-prefix=REPORT %s < %t/twice.err
#include <cuda_runtime.h>

__constant__ float c[4];
template <typename T> __global__ void k(T* p) {}

void run(float* p, cudaStream_t s) {
  cudaMemcpyToSymbol(c, p, sizeof(c));
  cudaFuncSetCacheConfig(k<float>, cudaFuncCachePreferL1);
  cudaEvent_t e;
  cudaEventCreate(&e, cudaEventDisableTiming);
  k<float><<<1, 1, 0, s>>>(p);
}
// REPORT: 1 files translated (0 changed, 0 rewrites)
