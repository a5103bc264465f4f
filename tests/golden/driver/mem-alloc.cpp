// cuMemAlloc/cuMemFree allocate through a CUdeviceptr; HIP's hipMalloc/hipFree do the same
// through a device pointer, so the calls map to hipMalloc and hipFree. CUdeviceptr itself becomes
// gpuport_hipDeviceptr_t, the shim's integer type (driver/deviceptr-arithmetic.cu says why).
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda.h>

void scratch(size_t bytes) {
  CUdeviceptr d;
  // CHECK: {{^}}  gpuport_hipDeviceptr_t d;
  cuMemAlloc(&d, bytes);
  // CHECK-NEXT: {{^}}  hipMalloc(&d, bytes);
  cuMemFree(d);
  // CHECK-NEXT: {{^}}  hipFree(d);
}
// REPORT: 0 errors, 0 warnings
