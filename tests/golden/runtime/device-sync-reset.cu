// Whole-device synchronisation, reset and scheduling flags are renamed.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

void shutdown() {
  cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync);
  // CHECK: {{^}}  hipSetDeviceFlags(hipDeviceScheduleBlockingSync);
  cudaDeviceSynchronize();
  // CHECK-NEXT: {{^}}  hipDeviceSynchronize();
  cudaDeviceReset();
  // CHECK-NEXT: {{^}}  hipDeviceReset();
}
// REPORT: 0 errors, 0 warnings
