// Driver contexts: the context type and the cuCtx* calls map to hipCtx* (deprecated in HIP
// but present in 5.2), primary-context retention to hipDevicePrimaryCtxRetain.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda.h>

void contexts(CUdevice dev) {
  CUcontext ctx, primary;
  // CHECK: {{^}}  hipCtx_t ctx, primary;
  cuCtxCreate(&ctx, 0, dev);
  // CHECK-NEXT: {{^}}  hipCtxCreate(&ctx, 0, dev);
  cuCtxSetCurrent(ctx);
  // CHECK-NEXT: {{^}}  hipCtxSetCurrent(ctx);
  cuCtxSynchronize();
  // CHECK-NEXT: {{^}}  hipCtxSynchronize();
  cuDevicePrimaryCtxRetain(&primary, dev);
  // CHECK-NEXT: {{^}}  hipDevicePrimaryCtxRetain(&primary, dev);
  cuCtxDestroy(ctx);
  // CHECK-NEXT: {{^}}  hipCtxDestroy(ctx);
}
// REPORT: 0 errors
