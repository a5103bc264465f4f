// Generator kinds, the double/log-normal/Poisson generators, offsets, quasi-random dimensions
// and the host-side generator all map one to one onto hipRAND.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <curand.h>

void gens(double* d, unsigned* u, float* f, size_t n) {
  curandGenerator_t a, b, c;
  curandCreateGenerator(&a, CURAND_RNG_PSEUDO_PHILOX4_32_10);
  // CHECK: hiprandCreateGenerator(&a, HIPRAND_RNG_PSEUDO_PHILOX4_32_10);
  curandCreateGenerator(&b, CURAND_RNG_QUASI_SOBOL32);
  // CHECK-NEXT: hiprandCreateGenerator(&b, HIPRAND_RNG_QUASI_SOBOL32);
  curandCreateGeneratorHost(&c, CURAND_RNG_PSEUDO_XORWOW);
  // CHECK-NEXT: hiprandCreateGeneratorHost(&c, HIPRAND_RNG_PSEUDO_XORWOW);
  curandSetGeneratorOffset(a, 1000ull);
  // CHECK-NEXT: hiprandSetGeneratorOffset(a, 1000ull);
  curandSetQuasiRandomGeneratorDimensions(b, 3);
  // CHECK-NEXT: hiprandSetQuasiRandomGeneratorDimensions(b, 3);
  curandGenerateUniformDouble(a, d, n);
  // CHECK-NEXT: hiprandGenerateUniformDouble(a, d, n);
  curandGenerateLogNormal(a, f, n, 0.0f, 1.0f);
  // CHECK-NEXT: hiprandGenerateLogNormal(a, f, n, 0.0f, 1.0f);
  curandGeneratePoisson(a, u, n, 4.0);
  // CHECK-NEXT: hiprandGeneratePoisson(a, u, n, 4.0);
  curandGenerate(b, u, n);
  // CHECK-NEXT: hiprandGenerate(b, u, n);
}
// REPORT: 0 errors, 0 warnings
