// __CUDACC__ (compiling with the CUDA compiler) becomes __HIPCC__ in every directive form;
// __NVCC__ is kept, so code for nvcc only is skipped under hipcc/clang.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#ifdef __CUDACC__
// CHECK: {{^}}#ifdef __HIPCC__{{$}}
#define HD __host__ __device__
#endif
#if defined(__CUDACC__) || defined(__NVCC__)
// CHECK: {{^}}#if defined(__HIPCC__) || defined(__NVCC__){{$}}
#endif
#ifndef __CUDACC__
// CHECK: {{^}}#ifndef __HIPCC__{{$}}
#define HD
#endif
// REPORT: 0 errors, 0 warnings
