// 3D copies: the parameter struct, the make_* helpers and the call are renamed; the struct's
// fields (srcPtr, dstPtr, extent, kind) keep their names.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

void copy3d(void* src, void* dst, size_t w, size_t h, size_t d) {
  cudaMemcpy3DParms p = {0};
  // CHECK: {{^}}  hipMemcpy3DParms p = {0};
  p.srcPtr = make_cudaPitchedPtr(src, w, w, h);
  // CHECK-NEXT: {{^}}  p.srcPtr = make_hipPitchedPtr(src, w, w, h);
  p.dstPtr = make_cudaPitchedPtr(dst, w, w, h);
  // CHECK-NEXT: {{^}}  p.dstPtr = make_hipPitchedPtr(dst, w, w, h);
  p.srcPos = make_cudaPos(0, 0, 0);
  // CHECK-NEXT: {{^}}  p.srcPos = make_hipPos(0, 0, 0);
  p.extent = make_cudaExtent(w, h, d);
  // CHECK-NEXT: {{^}}  p.extent = make_hipExtent(w, h, d);
  p.kind = cudaMemcpyDeviceToDevice;
  // CHECK-NEXT: {{^}}  p.kind = hipMemcpyDeviceToDevice;
  cudaMemcpy3D(&p);
  // CHECK-NEXT: {{^}}  hipMemcpy3D(&p);
}
// REPORT: 0 errors, 0 warnings
