// Synchronous driver copies between host and device are renamed one for one.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda.h>

void roundtrip(CUdeviceptr dev, float* host, size_t n) {
  cuMemcpyHtoD(dev, host, n * sizeof(float));
  // CHECK: {{^}}  hipMemcpyHtoD(dev, host, n * sizeof(float));
  cuMemcpyDtoH(host, dev, n * sizeof(float));
  // CHECK-NEXT: {{^}}  hipMemcpyDtoH(host, dev, n * sizeof(float));
}
// REPORT: 0 errors, 0 warnings
