// cuFFT -> hipFFT: cufft.h becomes hipfft/hipfft.h; cufftHandle, cufftPlan1d, cufftExecC2C,
// cufftDestroy and cufftComplex get hipfft names; CUFFT_C2C -> HIPFFT_C2C,
// CUFFT_FORWARD -> HIPFFT_FORWARD and CUFFT_INVERSE -> HIPFFT_BACKWARD.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cufft.h>
// CHECK: #include <hipfft/hipfft.h>

void roundtrip(cufftComplex* data, int n) {
  // CHECK: void roundtrip(hipfftComplex* data, int n) {
  cufftHandle plan;
  // CHECK-NEXT: hipfftHandle plan;
  cufftPlan1d(&plan, n, CUFFT_C2C, 1);
  // CHECK-NEXT: hipfftPlan1d(&plan, n, HIPFFT_C2C, 1);
  cufftExecC2C(plan, data, data, CUFFT_FORWARD);
  // CHECK-NEXT: hipfftExecC2C(plan, data, data, HIPFFT_FORWARD);
  cufftExecC2C(plan, data, data, CUFFT_INVERSE);
  // CHECK-NEXT: hipfftExecC2C(plan, data, data, HIPFFT_BACKWARD);
  cufftDestroy(plan);
  // CHECK-NEXT: hipfftDestroy(plan);
}
// CHECK-NOT: cufft
// CHECK-NOT: CUFFT
// REPORT: 0 errors, 0 warnings
