// cudaThreadSynchronize is the deprecated name of cudaDeviceSynchronize (same semantics). HIP
// has no hipThreadSynchronize, so it becomes hipDeviceSynchronize with a deprecated-api warning.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

void wait_all() {
  cudaThreadSynchronize();
  // CHECK: {{^}}  hipDeviceSynchronize();
  // REPORT: {{.*}}deprecated-thread-sync.cu:[[@LINE-2]]:3: warning: {{.*}}cudaThreadSynchronize{{.*}}[deprecated-api]
}
// REPORT: 0 errors, 1 warnings
