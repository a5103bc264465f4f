// Directed-rounding arithmetic (_rd, _ru, _rz) is not usable with HIP 5.2 and the ROCm device
// libraries: each call is an unsupported-api error whose fix says to use the _rn variant.
// RUN: not %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__device__ float directed(float a, float b, double d) {
  float x = __fadd_rd(a, b);
  // CHECK: float x = __fadd_rd(a, b);
  float y = __fadd_ru(a, b);
  // CHECK-NEXT: float y = __fadd_ru(a, b);
  float z = __fmaf_rz(a, b, x);
  // CHECK-NEXT: float z = __fmaf_rz(a, b, x);
  double w = __ddiv_rd(d, d);
  // CHECK-NEXT: double w = __ddiv_rd(d, d);
  return x + y + z + (float)w;
}
// REPORT: :7:13: error: '__fadd_rd' (device) has no HIP equivalent [unsupported-api]
// REPORT-NEXT: fix: {{.*}}use the _rn variant
// REPORT: :9:13: error: '__fadd_ru' {{.*}}[unsupported-api]
// REPORT: :11:13: error: '__fmaf_rz' {{.*}}[unsupported-api]
// REPORT: :13:14: error: '__ddiv_rd' {{.*}}[unsupported-api]
// REPORT: 4 errors, 0 warnings
