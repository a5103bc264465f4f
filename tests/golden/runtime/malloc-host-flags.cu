// The three-argument C++ overload cudaMallocHost(ptr, size, flags) becomes hipHostMalloc,
// which takes the flags; the flag names follow.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

void* pinned(size_t n) {
  void* host = nullptr;
  cudaMallocHost(&host, n, cudaHostAllocPortable);
  // CHECK: {{^}}  hipHostMalloc(&host, n, hipHostMallocPortable);
  return host;
}
// REPORT: 0 errors, 0 warnings
