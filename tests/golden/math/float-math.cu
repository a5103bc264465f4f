// Single-precision math functions have the same names in HIP (amd_math_functions.h): they
// are left unchanged, with no finding.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__global__ void fmath(float* y, const float* x) {
  float v = x[threadIdx.x];
  float a = sinf(v) + rsqrtf(v) + erfinvf(v);
  // CHECK: float a = sinf(v) + rsqrtf(v) + erfinvf(v);
  float b = norm3df(v, v, v) + rnormf(3, x) + rhypotf(v, v);
  // CHECK-NEXT: float b = norm3df(v, v, v) + rnormf(3, x) + rhypotf(v, v);
  float s, c;
  sincosf(v, &s, &c);
  // CHECK: sincosf(v, &s, &c);
  sincospif(v, &s, &c);
  // CHECK-NEXT: sincospif(v, &s, &c);
  y[threadIdx.x] = a + b + s + c + normcdff(v) + exp10f(v) + j0f(v) + cyl_bessel_i0f(v);
  // CHECK-NEXT: y[threadIdx.x] = a + b + s + c + normcdff(v) + exp10f(v) + j0f(v) + cyl_bessel_i0f(v);
}
// REPORT: 0 errors, 0 warnings
