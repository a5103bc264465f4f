// HIP 6's hipDeviceProp_t (R0600) has the cudaDeviceProp members HIP 5.2's lacked: for
// --hip-version 6.4, the default, they are written as they are (with 5.2 each is an error naming
// the device attribute to query: runtime/device-prop-missing-members.cu).
// RUN: rm -rf %t && %gpuport translate --check --check-targets amd -o %t %s > %t.log 2>&1
// RUN: FileCheck --check-prefix=REPORT %s < %t.log
// RUN: grep -v -e CHECK -e RUN -e REPORT %t/device-prop-hip64.cu | FileCheck %s
#include <cstdio>
int main() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  // CHECK: hipGetDeviceProperties(&prop, 0);
  std::printf("%d %d %d %zu\n", prop.asyncEngineCount, prop.unifiedAddressing, prop.maxBlocksPerMultiProcessor,
              prop.sharedMemPerBlockOptin);
  // CHECK: prop.asyncEngineCount, prop.unifiedAddressing, prop.maxBlocksPerMultiProcessor,
  // CHECK-NEXT: prop.sharedMemPerBlockOptin);
  return 0;
}
// REPORT: check gfx1100: compiles
// REPORT: 0 errors
