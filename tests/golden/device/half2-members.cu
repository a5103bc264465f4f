// CUDA's __half2 has __half members x and y; HIP 5.2's (amd_hip_fp16.h) has unsigned short x and
// y, the raw bits, so `(float)h.x` compiles on AMD and converts the bit pattern as an integer.
// On objects declared as __half2 or half2, h.x and h.y are read as half (as hipify-clang writes
// them); accesses already wrapped, and x/y of other objects, are left alone. Translating the
// output again changes nothing.
// RUN: %gpuport translate --hip-version 5.2 %s 2>/dev/null > %t.hip
// RUN: grep -v -e CHECK -e RUN %t.hip | FileCheck %s
// RUN: %gpuport translate --hip-version 5.2 %t.hip 2>/dev/null | diff %t.hip -
#include <cuda_fp16.h>
struct point { float x, y; };
__global__ void k(__half2* in, float* out, point p) {
  half2 h = in[0];
  out[0] = (float)h.x + (float)in[1].y;
  // CHECK: out[0] = (float)reinterpret_cast<half&>(h.x) + (float)reinterpret_cast<half&>(in[1].y);
  out[1] = (float)reinterpret_cast<half&>(h.y) + p.x;
  // CHECK: out[1] = (float)reinterpret_cast<half&>(h.y) + p.x;
  h.x = __float2half(1.0f);
  // CHECK: reinterpret_cast<half&>(h.x) = __float2half(1.0f);
}
