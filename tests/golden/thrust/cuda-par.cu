// thrust::cuda::par (the CUDA execution policy) must become thrust::hip::par in rocThrust;
// the other thrust:: names are unchanged.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <thrust/execution_policy.h>
#include <thrust/sort.h>

void sort_on(cudaStream_t s, int* first, int* last) {
  thrust::sort(thrust::cuda::par.on(s), first, last);
  // CHECK: thrust::sort(thrust::hip::par.on(s), first, last);
}
// REPORT: 0 errors
