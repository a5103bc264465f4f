// cuLaunchKernel becomes hipModuleLaunchKernel with the same eleven arguments in the same
// order (grid x/y/z, block x/y/z, shared bytes, stream, params, extra).
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda.h>

void run(CUfunction fn, CUdeviceptr x, int n) {
  void* params[] = {&x, &n};
  cuLaunchKernel(fn, (n + 127) / 128, 1, 1, 128, 1, 1, 0, 0, params, nullptr);
  // CHECK: {{^}}  hipModuleLaunchKernel(fn, (n + 127) / 128, 1, 1, 128, 1, 1, 0, 0, params, nullptr);
  cuLaunchKernel(fn,
                 4, 4, 1,
                 16, 16, 1,
                 1024, 0, params, 0);
  // CHECK-NEXT: {{^}}  hipModuleLaunchKernel(fn,
  // CHECK-NEXT: {{^}}                 4, 4, 1,
  // CHECK-NEXT: {{^}}                 16, 16, 1,
  // CHECK-NEXT: {{^}}                 1024, 0, params, 0);
}
// CHECK-NOT: cuLaunchKernel
// REPORT: 0 errors, 0 warnings
