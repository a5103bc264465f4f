// cudaHostAlloc becomes hipHostMalloc (hipHostAlloc is deprecated in HIP) and its
// cudaHostAlloc* flags become hipHostMalloc* flags; mapped pointers and frees follow.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

void mapped(size_t n) {
  float* host = nullptr;
  float* dev = nullptr;
  cudaHostAlloc((void**)&host, n, cudaHostAllocMapped | cudaHostAllocPortable);
  // CHECK: {{^}}  hipHostMalloc((void**)&host, n, hipHostMallocMapped | hipHostMallocPortable);
  // CHECK-NOT: hipHostAlloc
  cudaHostAlloc(&host, n, cudaHostAllocDefault);
  // CHECK: {{^}}  hipHostMalloc(&host, n, hipHostMallocDefault);
  cudaHostGetDevicePointer((void**)&dev, host, 0);
  // CHECK-NEXT: {{^}}  hipHostGetDevicePointer((void**)&dev, host, 0);
  cudaFreeHost(host);
  // CHECK-NEXT: {{^}}  hipHostFree(host);
}
// REPORT: 0 errors, 0 warnings
