// Names that only contain "curand" are not the API: a member .curand_state, a user type
// my_curand_helper and a local variable named curand_seed stay unchanged, while the real
// curand_uniform call is renamed.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <curand_kernel.h>

struct my_curand_helper { curandState curand_state; };
// CHECK: struct my_curand_helper { hiprandState curand_state; };

__device__ float draw(my_curand_helper* h, unsigned long long curand_seed) {
  // CHECK: __device__ float draw(my_curand_helper* h, unsigned long long curand_seed) {
  return curand_uniform(&h->curand_state) + (float)curand_seed;
  // CHECK-NEXT: return hiprand_uniform(&h->curand_state) + (float)curand_seed;
}
// REPORT: 0 errors, 0 warnings
