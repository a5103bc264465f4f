// Launches of template kernels are kept as written by default, template arguments included.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

template <typename T, int BLOCK> __global__ void fill(T* p, T v) {}

template <typename T> void fill_all(T* p, T v, dim3 grid) {
  fill<T, 256><<<grid, 256>>>(p, v);
  // CHECK: {{^}}  fill<T, 256><<<grid, 256>>>(p, v);
  fill<float, 128><<<grid, dim3(128, 1, 1)>>>(reinterpret_cast<float*>(p), 0.0f);
  // CHECK-NEXT: {{^}}  fill<float, 128><<<grid, dim3(128, 1, 1)>>>(reinterpret_cast<float*>(p), 0.0f);
}
// REPORT: 0 errors, 0 warnings
