// cuRAND features hipRAND lacks are unsupported-api errors, left in place: generator
// ordering (curandSetGeneratorOrdering, CURAND_ORDERING_PSEUDO_DEFAULT), the specific
// Poisson algorithms (curand_poisson_knuth), and scrambled Sobol states.
// RUN: not %gpuport translate --hip-version 5.2 %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <curand.h>
#include <curand_kernel.h>

void order(curandGenerator_t g) {
  curandSetGeneratorOrdering(g, CURAND_ORDERING_PSEUDO_DEFAULT);
  // CHECK: hiprandGenerator_t
  // CHECK-NEXT: curandSetGeneratorOrdering(g, CURAND_ORDERING_PSEUDO_DEFAULT);
}

__global__ void knuth(curandState* s, curandStateScrambledSobol32_t* q, unsigned* out) {
  out[threadIdx.x] = curand_poisson_knuth(&s[threadIdx.x], 2.0f);
  // CHECK: out[threadIdx.x] = curand_poisson_knuth(&s[threadIdx.x], 2.0f);
}
// REPORT: :10:3: error: 'curandSetGeneratorOrdering' (curand) has no HIP equivalent [unsupported-api]
// REPORT: :10:33: error: 'CURAND_ORDERING_PSEUDO_DEFAULT' (curand) has no HIP equivalent [unsupported-api]
// REPORT: :15:39: error: 'curandStateScrambledSobol32_t' (curand) has no HIP equivalent [unsupported-api]
// REPORT: :16:22: error: 'curand_poisson_knuth' (curand) has no HIP equivalent [unsupported-api]
// REPORT: 4 errors
