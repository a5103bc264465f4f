// Philox states and the four-wide generators: curandStatePhilox4_32_10_t ->
// hiprandStatePhilox4_32_10_t, curand_uniform4 -> hiprand_uniform4, curand_normal4 ->
// hiprand_normal4; the float4 results keep their type.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <curand_kernel.h>

__global__ void philox(float4* u, float4* g, unsigned long long seed) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curandStatePhilox4_32_10_t st;
  // CHECK: hiprandStatePhilox4_32_10_t st;
  curand_init(seed, id, 0, &st);
  // CHECK-NEXT: hiprand_init(seed, id, 0, &st);
  float4 a = curand_uniform4(&st);
  // CHECK-NEXT: float4 a = hiprand_uniform4(&st);
  float4 b = curand_normal4(&st);
  // CHECK-NEXT: float4 b = hiprand_normal4(&st);
  u[id] = a;
  g[id] = b;
}
// REPORT: 0 errors, 0 warnings
