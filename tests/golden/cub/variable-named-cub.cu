// `cub` used as an ordinary identifier (a variable, a member, a parameter) is not the
// namespace and stays as written; only cub:: qualifications are renamed.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cub/cub.cuh>

struct Box { int cub; };
// CHECK: struct Box { int cub; };

int volume(Box b, int cub) {
  // CHECK: int volume(Box b, int cub) {
  int total = cub * cub + b.cub;
  // CHECK-NEXT: int total = cub * cub + b.cub;
  return total + cub::Max()(1, 2);
  // CHECK-NEXT: return total + hipcub::Max()(1, 2);
}
// CHECK-NOT: hipcub *
// REPORT: 0 errors, 0 warnings
