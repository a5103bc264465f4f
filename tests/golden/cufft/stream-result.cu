// cufftSetStream takes the HIP stream; cufftResult and CUFFT_SUCCESS become hipfftResult and
// HIPFFT_SUCCESS.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>
#include <cufft.h>

int on_stream(cufftHandle plan, cudaStream_t s) {
  cufftResult r = cufftSetStream(plan, s);
  // CHECK: hipfftResult r = hipfftSetStream(plan, s);
  return r == CUFFT_SUCCESS ? 0 : 1;
  // CHECK-NEXT: return r == HIPFFT_SUCCESS ? 0 : 1;
}
// REPORT: 0 errors, 0 warnings
