// cudaFuncSetCacheConfig(kernel, config): the kernel (first argument) is wrapped in
// reinterpret_cast<const void*>, also when it is a template instance; the config is renamed.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

__global__ void stencil(float* p) {}
template <int N> __global__ void tiled(float* p) {}

void configure() {
  cudaFuncSetCacheConfig(stencil, cudaFuncCachePreferShared);
  // CHECK: {{^}}  hipFuncSetCacheConfig(reinterpret_cast<const void*>(stencil), hipFuncCachePreferShared);
  cudaFuncSetCacheConfig(tiled<16>, cudaFuncCachePreferL1);
  // CHECK-NEXT: {{^}}  hipFuncSetCacheConfig(reinterpret_cast<const void*>(tiled<16>), hipFuncCachePreferL1);
}
// REPORT: 0 errors, 0 warnings
