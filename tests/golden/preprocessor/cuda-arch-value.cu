// A numeric test of __CUDA_ARCH__: CUDA's device passes compare their architecture, the host
// pass sees 0. gpuport reads gfx1100's device pass as sm_61's feature level (what HIP and gpuport's shims provide for
// CUDA code): a test that holds there becomes defined(__HIP_DEVICE_COMPILE__) (or its negation),
// with a note; one for what sm_70 and later add stays as written (false in both passes on AMD, as
// __CUDA_ARCH__ is undefined there) with a warning to review it. A truth test (#if __CUDA_ARCH__)
// is __HIP_DEVICE_COMPILE__'s. Exit 0.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

__device__ float load(const float* p) {
#if __CUDA_ARCH__ >= 700
  // CHECK: {{^}}#if __CUDA_ARCH__ >= 700{{$}}
  // REPORT: {{.*}}cuda-arch-value.cu:[[@LINE-2]]:5: warning: __CUDA_ARCH__ >= 700: false for gfx1100's device code, which gpuport reads as sm_61's features (the host pass, as with CUDA, sees 0) [cuda-arch-value]
  return __ldg(p);
#elif __CUDA_ARCH__ >= 350
  // CHECK: {{^}}#elif defined(__HIP_DEVICE_COMPILE__){{$}}
  // REPORT: {{.*}}cuda-arch-value.cu:[[@LINE-2]]:7: note: __CUDA_ARCH__ >= 350: true for gfx1100's device code
  return __ldg(p);
#elif __CUDA_ARCH__ < 300
  // CHECK: {{^}}#elif !defined(__HIP_DEVICE_COMPILE__){{$}}
  return *p;
#else
  return *p;
#endif
}
#if __CUDA_ARCH__ && !defined(__CUDACC_RTC__)
// CHECK: {{^}}#if __HIP_DEVICE_COMPILE__ && !defined(__HIPCC_RTC__){{$}}
#endif

// In code, __CUDA_ARCH__ is only ever compiled in device passes (Rodinia's dwt2d sizes shared
// memory banks with it): it becomes 610, with a note.
struct Buffer {
  enum {
#ifdef __CUDA_ARCH__
    BANKS = ((__CUDA_ARCH__ >= 200) ? 32 : 16),
    // CHECK: {{^}}    BANKS = ((610 >= 200) ? 32 : 16),
    // REPORT: {{.*}}cuda-arch-value.cu:[[@LINE-2]]:15: note: __CUDA_ARCH__ in device code: 610
#else
    BANKS = 16,
#endif
  };
};
// REPORT: 0 errors, 1 warnings
