// A runtime function with no HIP 5.2 equivalent is left as written and reported as an
// error (unsupported-api) at its line and column; the run exits with status 1. The rest of
// the file is still translated.
// RUN: not %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

__global__ void k(float* p) {}

void launch(const void* cfg, float* p) {
  cudaLaunchKernelEx(cfg, k, p);
  // CHECK: {{^}}  cudaLaunchKernelEx(cfg, k, p);
  // REPORT: {{.*}}unsupported-api.cu:[[@LINE-2]]:3: error: 'cudaLaunchKernelEx' {{.*}}[unsupported-api]
  cudaDeviceSynchronize();
  // CHECK-NEXT: {{^}}  hipDeviceSynchronize();
}
// REPORT: 1 errors
