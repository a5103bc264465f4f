// A driver call with no HIP 5.2 twin is kept and reported as unsupported-api (exit 1);
// the supported calls around it are still translated.
// RUN: not %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda.h>

void link(void** state) {
  cuInit(0);
  // CHECK: {{^}}  hipInit(0);
  cuLinkCreate(0, nullptr, nullptr, state);
  // CHECK-NEXT: {{^}}  cuLinkCreate(0, nullptr, nullptr, state);
  // REPORT: {{.*}}unsupported-api.cpp:[[@LINE-2]]:3: error: 'cuLinkCreate' {{.*}}[unsupported-api]
}
// REPORT: 1 errors
