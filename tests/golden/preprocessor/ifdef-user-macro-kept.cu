// Conditions on the user's own macros are not touched, even when the names mention CUDA.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>
#ifdef USE_CUDA
// CHECK: {{^}}#ifdef USE_CUDA{{$}}
#endif
#if defined(MYLIB_CUDA_ENABLED) && MYLIB_CUDA_ENABLED > 1
// CHECK: {{^}}#if defined(MYLIB_CUDA_ENABLED) && MYLIB_CUDA_ENABLED > 1{{$}}
#endif
// REPORT: 0 errors, 0 warnings
