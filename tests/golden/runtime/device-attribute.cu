// cudaDeviceGetAttribute becomes the GPUPORT_DEVICE_CC shim's hipDeviceGetAttribute (the compute
// capability agrees with the device code's level) and its cudaDevAttr* enumerators take HIP's
// hipDeviceAttribute* names, whose spelling differs (Multiprocessor, not MultiProcessor).
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

int sm_count(int dev) {
  int sms = 0, major = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  // CHECK: {{^}}  gpuport_hipDeviceGetAttribute(&sms, hipDeviceAttributeMultiprocessorCount, dev);
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
  // CHECK-NEXT: {{^}}  gpuport_hipDeviceGetAttribute(&major, hipDeviceAttributeComputeCapabilityMajor, dev);
  return sms;
}
// REPORT: 0 errors, 0 warnings
