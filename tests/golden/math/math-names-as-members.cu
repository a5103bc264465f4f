// A math-function name used as a member or inside a user namespace is not the API: only the
// free call to cuCaddf is renamed; obj.cuCaddf and mylib::cuCaddf stay, and so do their
// declarations (renaming a declaration but not its uses would break the code).
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuComplex.h>
namespace mylib { inline float cuCaddf(float a, float b) { return a + b; } }
// CHECK: namespace mylib { inline float cuCaddf(float a, float b) { return a + b; } }
struct Ops { float (*cuCaddf)(float, float); };
// CHECK-NEXT: struct Ops { float (*cuCaddf)(float, float); };

float use(Ops obj, cuFloatComplex a, cuFloatComplex b) {
  float x = obj.cuCaddf(1.0f, 2.0f) + mylib::cuCaddf(3.0f, 4.0f);
  // CHECK: float x = obj.cuCaddf(1.0f, 2.0f) + mylib::cuCaddf(3.0f, 4.0f);
  return x + cuCrealf(cuCaddf(a, b));
  // CHECK-NEXT: return x + hipCrealf(hipCaddf(a, b));
}
// REPORT: 0 errors
