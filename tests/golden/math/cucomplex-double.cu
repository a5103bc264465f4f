// Double-precision complex: cuDoubleComplex -> hipDoubleComplex, cuComplex -> hipComplex,
// make_cuDoubleComplex / make_cuComplex -> make_hip*, cuCadd/cuCdiv/cuCfma -> hipCadd/...,
// and the precision conversions cuComplexFloatToDouble / cuComplexDoubleToFloat.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuComplex.h>

__host__ __device__ cuDoubleComplex mix(cuDoubleComplex a, cuComplex b) {
  // CHECK: __host__ __device__ hipDoubleComplex mix(hipDoubleComplex a, hipComplex b) {
  cuDoubleComplex one = make_cuDoubleComplex(1.0, 0.0);
  // CHECK-NEXT: hipDoubleComplex one = make_hipDoubleComplex(1.0, 0.0);
  cuComplex c = make_cuComplex(2.0f, 0.0f);
  // CHECK-NEXT: hipComplex c = make_hipComplex(2.0f, 0.0f);
  cuDoubleComplex s = cuCadd(a, cuComplexFloatToDouble(b));
  // CHECK-NEXT: hipDoubleComplex s = hipCadd(a, hipComplexFloatToDouble(b));
  cuComplex t = cuComplexDoubleToFloat(cuCdiv(s, one));
  // CHECK-NEXT: hipComplex t = hipComplexDoubleToFloat(hipCdiv(s, one));
  return cuCfma(s, one, cuComplexFloatToDouble(cuCaddf(t, c)));
  // CHECK-NEXT: return hipCfma(s, one, hipComplexFloatToDouble(hipCaddf(t, c)));
}
// REPORT: 0 errors, 0 warnings
