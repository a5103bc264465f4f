// Loading a module from memory and looking up a kernel by name.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda.h>

CUfunction lookup(const void* image) {
  // CHECK: {{^}}hipFunction_t lookup(const void* image) {
  CUmodule mod;
  cuModuleLoadData(&mod, image);
  // CHECK: {{^}}  hipModuleLoadData(&mod, image);
  CUfunction fn;
  // CHECK-NEXT: {{^}}  hipFunction_t fn;
  cuModuleGetFunction(&fn, mod, "saxpy");
  // CHECK-NEXT: {{^}}  hipModuleGetFunction(&fn, mod, "saxpy");
  return fn;
}
// REPORT: 0 errors, 0 warnings
