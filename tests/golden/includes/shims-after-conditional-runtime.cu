// A file that includes the runtime only inside #if branches (llama.cpp's ggml-cuda.cu picks
// HIP's or CUDA's by a macro) still gets the shims it needs: after each of those includes, the
// shims' guards keeping one copy. Before, they were left out and the names they declare were
// undeclared.
// REQUIRES: hip-compilers
// RUN: rm -rf %t && %gpuport translate --hip-version 5.2 --check -o %t %s > %t.log 2>&1
// RUN: FileCheck --check-prefix=REPORT %s < %t.log
// RUN: grep -v -e CHECK -e RUN -e REPORT %t/shims-after-conditional-runtime.cu | FileCheck %s
#if defined(USE_OWN_HIP)
#include <hip/hip_runtime.h>
// CHECK: #include <hip/hip_runtime.h>
// CHECK-NEXT: #if !defined(GPUPORT_STORE_HINTS)
#else
#include <cuda_runtime.h>
// CHECK: #include <hip/hip_runtime.h>
// CHECK-NEXT: #if !defined(GPUPORT_STORE_HINTS)
#endif

__global__ void store(float* p, float v) { __stcs(p, v); }
// CHECK: gpuport_stcs(p, v);
// REPORT: check gfx1100: compiles
// REPORT: check nvidia: compiles
