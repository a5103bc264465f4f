// Thrust code stays Thrust: rocThrust keeps the thrust namespace and the include paths, so
// thrust::device_vector, thrust::sort, thrust::reduce and their headers are unchanged; only
// the CUDA runtime calls next to them are translated.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <thrust/device_vector.h>
#include <thrust/sort.h>
#include <thrust/reduce.h>
// CHECK: #include <thrust/device_vector.h>
// CHECK-NEXT: #include <thrust/sort.h>
// CHECK-NEXT: #include <thrust/reduce.h>

float sorted_sum(const thrust::host_vector<float>& h) {
  thrust::device_vector<float> d = h;
  // CHECK: thrust::device_vector<float> d = h;
  thrust::sort(d.begin(), d.end());
  // CHECK-NEXT: thrust::sort(d.begin(), d.end());
  float s = thrust::reduce(d.begin(), d.end(), 0.0f, thrust::plus<float>());
  // CHECK-NEXT: float s = thrust::reduce(d.begin(), d.end(), 0.0f, thrust::plus<float>());
  cudaDeviceSynchronize();
  // CHECK-NEXT: hipDeviceSynchronize();
  return s;
}
// CHECK-NOT: hipthrust
// REPORT: 0 errors, 0 warnings
