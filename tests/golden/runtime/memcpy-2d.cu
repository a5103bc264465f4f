// Pitched allocation and 2D copies are renamed with their arguments in place.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

void upload(const float* host, int w, int h, cudaStream_t s) {
  float* dev;
  size_t pitch;
  cudaMallocPitch((void**)&dev, &pitch, w * sizeof(float), h);
  // CHECK: {{^}}  hipMallocPitch((void**)&dev, &pitch, w * sizeof(float), h);
  cudaMemcpy2D(dev, pitch, host, w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice);
  // CHECK-NEXT: {{^}}  hipMemcpy2D(dev, pitch, host, w * sizeof(float), w * sizeof(float), h, hipMemcpyHostToDevice);
  cudaMemcpy2DAsync(dev, pitch, host, w * sizeof(float), w * sizeof(float), h, cudaMemcpyDefault, s);
  // CHECK-NEXT: {{^}}  hipMemcpy2DAsync(dev, pitch, host, w * sizeof(float), w * sizeof(float), h, hipMemcpyDefault, s);
}
// REPORT: 0 errors, 0 warnings
