// The __half2 member rule (device/half2-members.cu) for a name that is also declared with another
// type in the file: `__half2 v` in one function and `float2 v` in the next. The nearest
// declaration before a use decides, so the float2's members stay as written (before, every `v.x`
// of the file was read as a half).
// RUN: %gpuport translate --hip-version 5.2 %s 2>/dev/null > %t.hip
// RUN: grep -v -e CHECK -e RUN %t.hip | FileCheck %s
#include <cuda_fp16.h>
__global__ void halves(const __half2* in, float* out) {
  __half2 v = in[0];
  out[0] = __half2float(v.x);
  // CHECK: out[0] = __half2float(reinterpret_cast<half&>(v.x));
}
__global__ void floats(const float2* in, float* out) {
  float2 v = in[0];
  out[0] = v.x + v.y;
  // CHECK: out[0] = v.x + v.y;
}
__global__ void halves_again(const __half2* in, float* out) {
  __half2 v = in[1];
  out[1] = __half2float(v.y);
  // CHECK: out[1] = __half2float(reinterpret_cast<half&>(v.y));
}
