// cuComplex.h becomes hip/hip_complex.h and every cuComplex type and function gets its hip
// name: cuFloatComplex -> hipFloatComplex, make_cuFloatComplex -> make_hipFloatComplex,
// cuCaddf -> hipCaddf, cuCmulf -> hipCmulf, cuCabsf -> hipCabsf, cuConjf -> hipConjf.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuComplex.h>
// CHECK: #include <hip/hip_complex.h>

__device__ float rotate(cuFloatComplex z, float angle) {
  // CHECK: __device__ float rotate(hipFloatComplex z, float angle) {
  cuFloatComplex w = make_cuFloatComplex(cosf(angle), sinf(angle));
  // CHECK-NEXT: hipFloatComplex w = make_hipFloatComplex(cosf(angle), sinf(angle));
  cuFloatComplex r = cuCaddf(cuCmulf(z, w), cuConjf(z));
  // CHECK-NEXT: hipFloatComplex r = hipCaddf(hipCmulf(z, w), hipConjf(z));
  return cuCabsf(r) + cuCrealf(r) + cuCimagf(r);
  // CHECK-NEXT: return hipCabsf(r) + hipCrealf(r) + hipCimagf(r);
}
// CHECK-NOT: cuC
// REPORT: 0 errors, 0 warnings
