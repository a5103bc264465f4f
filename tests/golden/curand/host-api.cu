// cuRAND host API -> hipRAND: curand.h becomes hiprand/hiprand.h and the generator calls,
// types and enumerators get their hiprand/HIPRAND names, arguments unchanged.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <curand.h>
// CHECK: #include <hiprand/hiprand.h>

int fill(float* dev, size_t n, unsigned long long seed) {
  curandGenerator_t gen;
  // CHECK: hiprandGenerator_t gen;
  curandStatus_t st = curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT);
  // CHECK-NEXT: hiprandStatus_t st = hiprandCreateGenerator(&gen, HIPRAND_RNG_PSEUDO_DEFAULT);
  if (st != CURAND_STATUS_SUCCESS) return 1;
  // CHECK-NEXT: if (st != HIPRAND_STATUS_SUCCESS) return 1;
  curandSetPseudoRandomGeneratorSeed(gen, seed);
  // CHECK-NEXT: hiprandSetPseudoRandomGeneratorSeed(gen, seed);
  curandGenerateUniform(gen, dev, n);
  // CHECK-NEXT: hiprandGenerateUniform(gen, dev, n);
  curandGenerateNormal(gen, dev, n, 0.0f, 1.0f);
  // CHECK-NEXT: hiprandGenerateNormal(gen, dev, n, 0.0f, 1.0f);
  curandDestroyGenerator(gen);
  // CHECK-NEXT: hiprandDestroyGenerator(gen);
  return 0;
}
// CHECK-NOT: curand
// REPORT: 0 errors, 0 warnings
