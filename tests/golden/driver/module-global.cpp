// cuModuleGetGlobal is renamed; the device pointer type becomes gpuport_hipDeviceptr_t.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda.h>

CUdeviceptr global_of(CUmodule mod, size_t* bytes) {
  // CHECK: {{^}}gpuport_hipDeviceptr_t global_of(hipModule_t mod, size_t* bytes) {
  CUdeviceptr p;
  // CHECK-NEXT: {{^}}  gpuport_hipDeviceptr_t p;
  cuModuleGetGlobal(&p, bytes, mod, "table");
  // CHECK-NEXT: {{^}}  hipModuleGetGlobal(&p, bytes, mod, "table");
  return p;
}
// REPORT: 0 errors, 0 warnings
