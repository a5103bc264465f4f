// A C header included for C linkage: `extern "C" { #include "cuda.h" }` is valid with CUDA (cuda.h
// is C), but HIP's runtime header holds C++ templates, which cannot have C linkage. The HIP header
// goes before the extern "C" block instead, with a note; the block's other lines stay in it.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
// CHECK: {{^}}#include <hip/hip_runtime.h>{{$}}
// CHECK-NEXT: {{^}}extern "C" {{{$}}
extern "C" {
#include "cuda.h"
// CHECK-NOT: cuda.h
// REPORT: {{.*}}extern-c-runtime.cu:[[@LINE-2]]:10: note: <cuda.h> inside extern "C": its HIP counterpart <hip/hip_runtime.h> is C++ {{.*}}[include-extern-c]
#include "legacy.h"
// CHECK: {{^}}#include "legacy.h"{{$}}
}
// CHECK-NEXT: {{^}}}{{$}}
int device_count() {
  int n = 0;
  cuDeviceGetCount(&n);
  // CHECK: hipGetDeviceCount(&n);
  return n;
}
// REPORT: 0 errors
