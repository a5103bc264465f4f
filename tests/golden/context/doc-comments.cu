// Documentation comments (///, /** */) keep the CUDA names they mention.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

/// Wraps cudaMemcpyAsync on the given cudaStream_t.
/** @return the cudaError_t from cudaMemcpyAsync */
cudaError_t copy(void* d, const void* s, size_t n, cudaStream_t st);
// CHECK: {{^}}/// Wraps cudaMemcpyAsync on the given cudaStream_t.
// CHECK-NEXT: {{^}}/** @return the cudaError_t from cudaMemcpyAsync */
// CHECK-NEXT: {{^}}hipError_t copy(void* d, const void* s, size_t n, hipStream_t st);
// REPORT: 0 errors, 0 warnings
