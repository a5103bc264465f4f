// A numeric test of __CUDA_ARCH__ has no HIP equivalent (__HIP_DEVICE_COMPILE__ is just 1):
// the line is kept as written and reported as a warning (cuda-macro-value); exit 0.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

__device__ float load(const float* p) {
#if __CUDA_ARCH__ >= 700
  // CHECK: {{^}}#if __CUDA_ARCH__ >= 700{{$}}
  // REPORT: {{.*}}cuda-arch-value.cu:[[@LINE-2]]:5: warning: '__CUDA_ARCH__' {{.*}}[cuda-macro-value]
  return __ldg(p);
#else
  return *p;
#endif
}
// REPORT: 0 errors, 1 warnings
