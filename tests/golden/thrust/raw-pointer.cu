// thrust::device_ptr wrapping memory from cudaMalloc: the thrust names stay, the runtime
// calls become hipMalloc/hipFree, and thrust::raw_pointer_cast is unchanged.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <thrust/device_ptr.h>
#include <thrust/fill.h>

void fill(int n) {
  int* raw = nullptr;
  cudaMalloc(&raw, n * sizeof(int));
  // CHECK: hipMalloc(&raw, n * sizeof(int));
  thrust::device_ptr<int> p = thrust::device_pointer_cast(raw);
  // CHECK-NEXT: thrust::device_ptr<int> p = thrust::device_pointer_cast(raw);
  thrust::fill(p, p + n, 7);
  // CHECK-NEXT: thrust::fill(p, p + n, 7);
  cudaFree(thrust::raw_pointer_cast(p));
  // CHECK-NEXT: hipFree(thrust::raw_pointer_cast(p));
}
// REPORT: 0 errors, 0 warnings
