// Code that tests the CUDA headers' include guards to know what is declared (NVIDIA's sample
// helper headers: `#ifdef __DRIVER_TYPES_H__` around the cudaError_t helpers) tests HIP's guards.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e 'RUN:' | FileCheck %s
#include <cuda_runtime.h>
#ifdef __DRIVER_TYPES_H__
// CHECK: {{^}}#ifdef HIP_INCLUDE_HIP_DRIVER_TYPES_H
static const char* name(cudaError_t e) { return cudaGetErrorName(e); }
#endif
#if defined(__CUDA_RUNTIME_API_H__)
// CHECK: {{^}}#if defined(HIP_INCLUDE_HIP_HIP_RUNTIME_API_H)
#endif
