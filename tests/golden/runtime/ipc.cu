// Inter-process memory handles: the handle type, the calls and the open flag are renamed.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

void share(void* dev, void** peer) {
  cudaIpcMemHandle_t handle;
  // CHECK: {{^}}  hipIpcMemHandle_t handle;
  cudaIpcGetMemHandle(&handle, dev);
  // CHECK-NEXT: {{^}}  hipIpcGetMemHandle(&handle, dev);
  cudaIpcOpenMemHandle(peer, handle, cudaIpcMemLazyEnablePeerAccess);
  // CHECK-NEXT: {{^}}  hipIpcOpenMemHandle(peer, handle, hipIpcMemLazyEnablePeerAccess);
  cudaIpcCloseMemHandle(*peer);
  // CHECK-NEXT: {{^}}  hipIpcCloseMemHandle(*peer);
}
// REPORT: 0 errors, 0 warnings
