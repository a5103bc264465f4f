// rocThrust keeps Thrust's include paths: thrust/ headers are left as they are.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <thrust/device_vector.h>
#include <thrust/sort.h>
#include <thrust/execution_policy.h>
// CHECK: {{^}}#include <thrust/device_vector.h>
// CHECK-NEXT: {{^}}#include <thrust/sort.h>
// CHECK-NEXT: {{^}}#include <thrust/execution_policy.h>
void sort(thrust::device_vector<int>& v) { thrust::sort(thrust::device, v.begin(), v.end()); }
// CHECK-NEXT: {{^}}void sort(thrust::device_vector<int>& v) { thrust::sort(thrust::device, v.begin(), v.end()); }
// REPORT: 0 errors, 0 warnings
