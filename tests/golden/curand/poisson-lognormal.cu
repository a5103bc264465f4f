// curand_poisson, curand_log_normal and the double-precision samplers map to their hiprand_
// names; the XORWOW and MRG32k3a state types to hiprandStateXORWOW_t / hiprandStateMRG32k3a_t.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <curand_kernel.h>

__global__ void draws(curandStateXORWOW_t* xs, curandStateMRG32k3a_t* ms, unsigned* k, double* d) {
  // CHECK: __global__ void draws(hiprandStateXORWOW_t* xs, hiprandStateMRG32k3a_t* ms, unsigned* k, double* d) {
  int id = threadIdx.x;
  k[id] = curand_poisson(&xs[id], 3.5);
  // CHECK-NEXT: int id = threadIdx.x;
  // CHECK-NEXT: k[id] = hiprand_poisson(&xs[id], 3.5);
  d[id] = curand_log_normal_double(&ms[id], 0.0, 1.0) + curand_uniform_double(&ms[id]);
  // CHECK-NEXT: d[id] = hiprand_log_normal_double(&ms[id], 0.0, 1.0) + hiprand_uniform_double(&ms[id]);
  d[id] += curand_normal_double(&xs[id]) + curand_log_normal(&xs[id], 0.0f, 1.0f);
  // CHECK-NEXT: d[id] += hiprand_normal_double(&xs[id]) + hiprand_log_normal(&xs[id], 0.0f, 1.0f);
}
// REPORT: 0 errors, 0 warnings
