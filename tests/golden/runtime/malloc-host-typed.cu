// cudaMallocHost with a typed pointer (float**) relies on CUDA's template overload. HIP's
// hipMallocHost takes only void** (and is deprecated); hipHostMalloc has the template
// overload with a default flags argument, so the call becomes hipHostMalloc; the flags are
// written out (hipHostMallocDefault), since hipHostMalloc's C function has no default.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
#include <cuda_runtime.h>

float* pinned(size_t n) {
  float* host = nullptr;
  cudaMallocHost(&host, n * sizeof(float));
  // CHECK: {{^}}  hipHostMalloc(&host, n * sizeof(float), hipHostMallocDefault);
  // CHECK-NOT: hipMallocHost
  cudaFreeHost(host);
  // CHECK: {{^}}  hipHostFree(host);
  return host;
}
