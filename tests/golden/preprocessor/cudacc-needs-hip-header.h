// `#ifdef __CUDACC__` becomes `#ifdef __HIPCC__`, which on NVIDIA only HIP's headers define
// (clang defines it on AMD): a header that tests it before including any HIP header gets
// <hip/hip_common.h> (macros only) first, or on NVIDIA its __host__ __device__ qualifiers vanish.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e 'RUN:' | FileCheck %s
#pragma once
// CHECK: {{^}}#pragma once
// CHECK-NEXT: {{^}}#include <hip/hip_common.h>
#ifdef __CUDACC__
// CHECK-NEXT: {{^}}#ifdef __HIPCC__
#define HD __host__ __device__
#else
#define HD
#endif
#include <cuda_runtime.h>
HD inline int twice(int x) { return 2 * x; }
