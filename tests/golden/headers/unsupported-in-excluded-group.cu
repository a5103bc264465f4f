// A header with no HIP counterpart in a group that the file's own conditions exclude as its
// macros stand (caffe's `#ifdef USE_CUDNN` around <cudnn.h>, built without USE_CUDNN) is read by
// no compiler: a warning, and the translation exits 0. gpuport nvcc reads the build's -D: given
// -DUSE_CUDNN the group is live, and the header an error again.
// REQUIRES: hip-compilers, hip64
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT -e LIVE | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
// RUN: rm -rf %t.run && mkdir %t.run && cd %t.run && %gpuport nvcc -c %s -o off.o 2> %t.off
// RUN: FileCheck --check-prefix=REPORT %s < %t.off
// RUN: not %gpuport nvcc -DUSE_CUDNN -c %s -o on.o 2> %t.on
// RUN: FileCheck --check-prefix=LIVE %s < %t.on
// CHECK: {{^}}#include <cudnn.h>
// REPORT: unsupported-in-excluded-group.cu:[[@LINE+5]]:10: warning: <cudnn.h> (headers) has no HIP counterpart, in a group that this file's conditions exclude as its macros stand; a build that enables the group needs one [unsupported-header]
// REPORT-NOT: error:
// LIVE: unsupported-in-excluded-group.cu:[[@LINE+3]]:10: error: <cudnn.h> (headers) has no HIP counterpart [unsupported-header]
#include <cuda_runtime.h>
#ifdef USE_CUDNN
#include <cudnn.h>
#endif

__global__ void fill(float* v) { v[threadIdx.x] = 1.0f; }
