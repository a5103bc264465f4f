// cudaDeviceProp members that HIP 5.2's hipDeviceProp_t lacks are errors with the device
// attribute to query instead (a translation that kept them would not compile for gfx1100);
// a member of the same name in a user's own struct is not the API.
// RUN: not %gpuport translate --hip-version 5.2 %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>
struct Mine { int uuid; int asyncEngineCount; };
int engines(int device, Mine* m) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, device);
  // CHECK: hipDeviceProp_t prop;
  int n = prop.asyncEngineCount + prop.multiProcessorCount;
  // CHECK: int n = prop.asyncEngineCount + prop.multiProcessorCount;
  const cudaDeviceProp* p = &prop;
  n += p->sharedMemPerBlockOptin;
  cudaDeviceProp props[2];
  n += props[1].unifiedAddressing;
  return n + m->uuid;
}
// REPORT: device-prop-missing-members.cu:12:16: error: cudaDeviceProp member 'asyncEngineCount' has no HIP counterpart [unsupported-member]
// REPORT-NEXT: fix: {{.*}}hipDeviceGetAttribute(&value, hipDeviceAttributeAsyncEngineCount, device)
// REPORT: device-prop-missing-members.cu:15:11: error: cudaDeviceProp member 'sharedMemPerBlockOptin' has no HIP counterpart [unsupported-member]
// REPORT: device-prop-missing-members.cu:17:17: error: cudaDeviceProp member 'unifiedAddressing' has no HIP counterpart [unsupported-member]
// REPORT: 3 errors, 0 warnings
