// --hip-version 5.7 (Debian 13's HIP, in the packages scripts/fetch-rocm-headers unpacks) builds
// against that HIP alone, through its clang-hip.rsp: HIP_VERSION is 5.7's, not Debian 12's 5.2
// from /usr/include. The NVIDIA check is skipped with the reason (only HIP 5.2's NVIDIA platform
// headers are packaged).
// RUN: rm -rf %t && %gpuport translate --hip-version 5.7 --check -o %t %s > %t.log 2>&1
// RUN: FileCheck --check-prefix=REPORT %s < %t.log
// RUN: FileCheck %s < %t/hip57-target.cu
#include <cstdio>
#if HIP_VERSION_MAJOR * 100 + HIP_VERSION_MINOR != 507 && defined(__HIP_PLATFORM_AMD__)
#error built against another HIP than 5.7
#endif
__global__ void scale(float* p, float f) { p[threadIdx.x] *= f; }
// CHECK: __global__ void scale(float* p, float f)
int main() {
  float* p = nullptr;
  cudaMalloc(&p, 64 * sizeof(float));
  // CHECK: hipMalloc(&p, 64 * sizeof(float));
  scale<<<1, 64>>>(p, 2.0f);
  cudaFree(p);
  return 0;
}
// REPORT: hip57-target.cu: check gfx1100: compiles
// REPORT: check nvidia SKIPPED: HIP 5.7's NVIDIA platform headers are not packaged here
// REPORT: checks: 1 passed, 0 failed, 1 skipped
