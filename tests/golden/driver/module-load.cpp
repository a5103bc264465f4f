// Loading a module from a file: the module type and cuModuleLoad/Unload are renamed; the
// file name is a string and stays as written.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda.h>

void load() {
  CUmodule mod;
  // CHECK: {{^}}  hipModule_t mod;
  cuModuleLoad(&mod, "kernels_cuda.cubin");
  // CHECK-NEXT: {{^}}  hipModuleLoad(&mod, "kernels_cuda.cubin");
  cuModuleUnload(mod);
  // CHECK-NEXT: {{^}}  hipModuleUnload(mod);
}
// REPORT: 0 errors, 0 warnings
