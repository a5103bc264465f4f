// cudaLaunchKernel(kernel, grid, block, args, smem, stream): HIP 5.2's hipLaunchKernel takes
// const void* and has no template overload, so the kernel is wrapped in
// reinterpret_cast<const void*>; the other arguments are untouched.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

__global__ void axpy(float a, float* x) {}

void run(float a, float* x, dim3 grid, dim3 block, cudaStream_t s) {
  void* args[] = {&a, &x};
  cudaLaunchKernel(axpy, grid, block, args, 0, s);
  // CHECK: {{^}}  hipLaunchKernel(reinterpret_cast<const void*>(axpy), grid, block, args, 0, s);
}
// REPORT: 0 errors, 0 warnings
