// Driver API start-up: cuInit, device handles and device queries are renamed; <cuda.h>
// becomes the HIP runtime header.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda.h>
// CHECK: {{^}}#include <hip/hip_runtime.h>

void start(char* name) {
  cuInit(0);
  // CHECK: {{^}}  hipInit(0);
  CUdevice dev;
  // CHECK-NEXT: {{^}}  hipDevice_t dev;
  cuDeviceGet(&dev, 0);
  // CHECK-NEXT: {{^}}  hipDeviceGet(&dev, 0);
  cuDeviceGetName(name, 256, dev);
  // CHECK-NEXT: {{^}}  hipDeviceGetName(name, 256, dev);
}
// REPORT: 0 errors, 0 warnings
