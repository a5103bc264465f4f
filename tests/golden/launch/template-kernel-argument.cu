// A kernel template instance passed to a runtime call (cudaFuncSetAttribute(k<true, 128>, ...))
// is one argument, even when the file does not declare the template (it comes from a header):
// `name<a, b>` followed by `,` or `)` is template arguments, not two comparisons. Before, the
// argument was split at its comma: reinterpret_cast<const void*>(fused<true), 128>.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>
#include "kernels.cuh"

void setup(int bytes, int a, int b, int c, int d) {
  cudaFuncSetAttribute(fused<true, 128>, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
  // CHECK: {{^}}  hipFuncSetAttribute(reinterpret_cast<const void*>(fused<true, 128>), hipFuncAttributeMaxDynamicSharedMemorySize, bytes);
  cudaFuncAttributes attr;
  cudaFuncGetAttributes(&attr, reduce<float, 4, Sum<float>>);
  // CHECK: {{^}}  hipFuncGetAttributes(&attr, reinterpret_cast<const void*>(reduce<float, 4, Sum<float>>));
  report(a < b, c > d);
  // CHECK: {{^}}  report(a < b, c > d);
}
// REPORT: 0 errors, 0 warnings
