// Tests of the switches that disable half-precision operators and conversions use their
// HIP names.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_fp16.h>
#ifdef __CUDA_NO_HALF_CONVERSIONS__
// CHECK: {{^}}#ifdef __HIP_NO_HALF_CONVERSIONS__{{$}}
#endif
#if !defined(__CUDA_NO_HALF_OPERATORS__)
// CHECK: {{^}}#if !defined(__HIP_NO_HALF_OPERATORS__){{$}}
#endif
// REPORT: 0 errors, 0 warnings
