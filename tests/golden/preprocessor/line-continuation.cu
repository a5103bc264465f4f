// A macro body continued over several lines with backslashes is translated on every line,
// and the continuations and their spacing are kept.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck --strict-whitespace %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

#define SAFE_COPY(dst, src, n)                            \
  do {                                                       \
    cudaError_t err = cudaMemcpy(dst, src, n, cudaMemcpyDefault); \
    if (err != cudaSuccess) abort();                         \
  } while (0)
// CHECK: {{^}}#define SAFE_COPY(dst, src, n)                            \{{$}}
// CHECK-NEXT: {{^}}  do {                                                       \{{$}}
// CHECK-NEXT: {{^}}    hipError_t err = hipMemcpy(dst, src, n, hipMemcpyDefault); \{{$}}
// CHECK-NEXT: {{^}}    if (err != hipSuccess) abort();                         \{{$}}
// CHECK-NEXT: {{^}}  } while (0){{$}}
// REPORT: 0 errors, 0 warnings
