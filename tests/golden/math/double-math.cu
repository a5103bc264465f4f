// Double-precision math functions keep their names in HIP.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__device__ double dmath(double v) {
  double a = sin(v) + cos(v) + exp(v) + log(v);
  // CHECK: double a = sin(v) + cos(v) + exp(v) + log(v);
  double b = rsqrt(v) + erfinv(v) + norm3d(v, v, v) + fma(v, v, v);
  // CHECK-NEXT: double b = rsqrt(v) + erfinv(v) + norm3d(v, v, v) + fma(v, v, v);
  double s, c;
  sincospi(v, &s, &c);
  // CHECK: sincospi(v, &s, &c);
  return a + b + s + c;
}
// REPORT: 0 errors, 0 warnings
