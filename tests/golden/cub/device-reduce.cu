// CUB -> hipCUB: <cub/cub.cuh> becomes <hipcub/hipcub.hpp> and the namespace cub:: becomes
// hipcub::; the member names (DeviceReduce::Sum, the two-call temp-storage protocol) stay.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cub/cub.cuh>
// CHECK: #include <hipcub/hipcub.hpp>

void sum(const float* in, float* out, int n, cudaStream_t s) {
  void* temp = nullptr;
  size_t bytes = 0;
  cub::DeviceReduce::Sum(temp, bytes, in, out, n, s);
  // CHECK: hipcub::DeviceReduce::Sum(temp, bytes, in, out, n, s);
  cudaMalloc(&temp, bytes);
  // CHECK-NEXT: hipMalloc(&temp, bytes);
  cub::DeviceReduce::Sum(temp, bytes, in, out, n, s);
  // CHECK-NEXT: hipcub::DeviceReduce::Sum(temp, bytes, in, out, n, s);
  cudaFree(temp);
}
// CHECK-NOT: cub::
// REPORT: 0 errors, 0 warnings
