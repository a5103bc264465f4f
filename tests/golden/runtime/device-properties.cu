// cudaDeviceProp becomes hipDeviceProp_t and the query is the GPUPORT_DEVICE_CC shim's (which
// reports the compute capability the device code is compiled as); the struct's fields are
// members, not API names, and keep their spelling.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>
#include <cstdio>

void show(int dev) {
  cudaDeviceProp prop;
  // CHECK: {{^}}  hipDeviceProp_t prop;
  cudaGetDeviceProperties(&prop, dev);
  // CHECK-NEXT: {{^}}  gpuport_hipGetDeviceProperties(&prop, dev);
  printf("%s %d.%d\n", prop.name, prop.major, prop.minor);
  // CHECK-NEXT: {{^}}  printf("%s %d.%d\n", prop.name, prop.major, prop.minor);
  size_t smem = prop.sharedMemPerBlock + prop.totalGlobalMem;
  // CHECK-NEXT: {{^}}  size_t smem = prop.sharedMemPerBlock + prop.totalGlobalMem;
  int sms = prop.multiProcessorCount * prop.maxThreadsPerMultiProcessor;
  // CHECK-NEXT: {{^}}  int sms = prop.multiProcessorCount * prop.maxThreadsPerMultiProcessor;
}
// REPORT: 0 errors, 0 warnings
