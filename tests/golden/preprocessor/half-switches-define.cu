// Defining __CUDA_NO_HALF_OPERATORS__ before including cuda_fp16.h switches the operators
// off; hip_fp16.h reads __HIP_NO_HALF_OPERATORS__, so the #define takes the HIP name (and
// #undef likewise), or the switch silently stops working.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
#define __CUDA_NO_HALF_OPERATORS__
// CHECK: {{^}}#define __HIP_NO_HALF_OPERATORS__{{$}}
#undef __CUDA_NO_HALF_CONVERSIONS__
// CHECK-NEXT: {{^}}#undef __HIP_NO_HALF_CONVERSIONS__{{$}}
#include <cuda_fp16.h>
// CHECK-NEXT: {{^}}#include <hip/hip_fp16.h>{{$}}
