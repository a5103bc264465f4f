// Texture objects: descriptors, enumerators, channel descriptors and the create/destroy calls
// are renamed; descriptor fields (resType, res.linear, addressMode, ...) keep their names.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

cudaTextureObject_t make_tex(float* dev, size_t n) {
  // CHECK: {{^}}hipTextureObject_t make_tex(float* dev, size_t n) {
  cudaResourceDesc res = {};
  // CHECK-NEXT: {{^}}  hipResourceDesc res = {};
  res.resType = cudaResourceTypeLinear;
  // CHECK-NEXT: {{^}}  res.resType = hipResourceTypeLinear;
  res.res.linear.devPtr = dev;
  // CHECK-NEXT: {{^}}  res.res.linear.devPtr = dev;
  res.res.linear.desc = cudaCreateChannelDesc<float>();
  // CHECK-NEXT: {{^}}  res.res.linear.desc = hipCreateChannelDesc<float>();
  res.res.linear.sizeInBytes = n * sizeof(float);
  // CHECK-NEXT: {{^}}  res.res.linear.sizeInBytes = n * sizeof(float);
  cudaTextureDesc tex = {};
  // CHECK-NEXT: {{^}}  hipTextureDesc tex = {};
  tex.addressMode[0] = cudaAddressModeClamp;
  // CHECK-NEXT: {{^}}  tex.addressMode[0] = hipAddressModeClamp;
  tex.filterMode = cudaFilterModePoint;
  // CHECK-NEXT: {{^}}  tex.filterMode = hipFilterModePoint;
  tex.readMode = cudaReadModeElementType;
  // CHECK-NEXT: {{^}}  tex.readMode = hipReadModeElementType;
  cudaTextureObject_t obj = 0;
  // CHECK-NEXT: {{^}}  hipTextureObject_t obj = 0;
  cudaCreateTextureObject(&obj, &res, &tex, nullptr);
  // CHECK-NEXT: {{^}}  hipCreateTextureObject(&obj, &res, &tex, nullptr);
  return obj;
}

void drop_tex(cudaTextureObject_t obj) { cudaDestroyTextureObject(obj); }
// CHECK: {{^}}void drop_tex(hipTextureObject_t obj) { hipDestroyTextureObject(obj); }
// REPORT: 0 errors, 0 warnings
