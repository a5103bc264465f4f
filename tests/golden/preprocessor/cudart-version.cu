// CUDART_VERSION has no HIP equivalent (HIP_VERSION counts differently): a test of it is
// kept and reported as an error (unsupported-api), exit status 1.
// RUN: not %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

#if CUDART_VERSION >= 11020
// CHECK: {{^}}#if CUDART_VERSION >= 11020{{$}}
// REPORT: {{.*}}cudart-version.cu:[[@LINE-2]]:5: error: 'CUDART_VERSION' {{.*}}[unsupported-api]
#define HAVE_ASYNC_ALLOC 1
#endif
// REPORT: 1 errors
