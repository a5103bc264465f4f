// Real transforms: cufftPlan2d with CUFFT_R2C/CUFFT_C2R, cufftExecR2C/cufftExecC2R and the
// cufftReal type map to hipFFT.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cufft.h>

void real2d(cufftReal* in, cufftComplex* freq, int nx, int ny) {
  // CHECK: void real2d(hipfftReal* in, hipfftComplex* freq, int nx, int ny) {
  cufftHandle fwd, inv;
  cufftPlan2d(&fwd, nx, ny, CUFFT_R2C);
  // CHECK: hipfftPlan2d(&fwd, nx, ny, HIPFFT_R2C);
  cufftPlan2d(&inv, nx, ny, CUFFT_C2R);
  // CHECK-NEXT: hipfftPlan2d(&inv, nx, ny, HIPFFT_C2R);
  cufftExecR2C(fwd, in, freq);
  // CHECK-NEXT: hipfftExecR2C(fwd, in, freq);
  cufftExecC2R(inv, freq, in);
  // CHECK-NEXT: hipfftExecC2R(inv, freq, in);
}
// REPORT: 0 errors, 0 warnings
