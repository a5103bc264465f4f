// Peer-to-peer queries, enabling and copies are renamed.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

void p2p(void* dst, const void* src, size_t n) {
  int can = 0;
  cudaDeviceCanAccessPeer(&can, 0, 1);
  // CHECK: {{^}}  hipDeviceCanAccessPeer(&can, 0, 1);
  if (can) cudaDeviceEnablePeerAccess(1, 0);
  // CHECK-NEXT: {{^}}  if (can) hipDeviceEnablePeerAccess(1, 0);
  cudaMemcpyPeer(dst, 0, src, 1, n);
  // CHECK-NEXT: {{^}}  hipMemcpyPeer(dst, 0, src, 1, n);
  cudaDeviceDisablePeerAccess(1);
  // CHECK-NEXT: {{^}}  hipDeviceDisablePeerAccess(1);
}
// REPORT: 0 errors, 0 warnings
