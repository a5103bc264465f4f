// cudaMallocPitch has a template overload taking T**; HIP 5.2's hipMallocPitch takes only void**
// (on AMD and on its NVIDIA platform), so the pointer argument is cast, unless it already is.
// RUN: %gpuport translate %s 2>/dev/null | grep -v -e CHECK -e RUN | FileCheck %s
#include <cuda_runtime.h>
void f(size_t w, size_t h) {
  float* img;
  size_t pitch;
  cudaMallocPitch(&img, &pitch, w * sizeof(float), h);
  // CHECK: hipMallocPitch(reinterpret_cast<void**>(&img), &pitch, w * sizeof(float), h);
  cudaMallocPitch((void**)&img, &pitch, w, h);
  // CHECK: hipMallocPitch((void**)&img, &pitch, w, h);
}
