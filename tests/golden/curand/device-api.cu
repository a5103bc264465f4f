// cuRAND device API -> hipRAND: curand_kernel.h becomes hiprand/hiprand_kernel.h,
// curandState -> hiprandState, curand_init -> hiprand_init, curand_uniform/curand_normal ->
// hiprand_uniform/hiprand_normal, curand(&s) -> hiprand(&s).
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <curand_kernel.h>
// CHECK: #include <hiprand/hiprand_kernel.h>

__global__ void setup(curandState* states, unsigned long long seed) {
  // CHECK: __global__ void setup(hiprandState* states, unsigned long long seed) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(seed, id, 0, &states[id]);
  // CHECK: hiprand_init(seed, id, 0, &states[id]);
}

__global__ void sample(curandState* states, float* u, float* g, unsigned* bits) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curandState local = states[id];
  // CHECK: hiprandState local = states[id];
  u[id] = curand_uniform(&local);
  // CHECK-NEXT: u[id] = hiprand_uniform(&local);
  g[id] = curand_normal(&local);
  // CHECK-NEXT: g[id] = hiprand_normal(&local);
  bits[id] = curand(&local);
  // CHECK-NEXT: bits[id] = hiprand(&local);
  states[id] = local;
}
// CHECK-NOT: curand
// REPORT: 0 errors, 0 warnings
