// The two-step plan API (cufftCreate, cufftMakePlan1d with a work size) and work-area
// control (cufftSetAutoAllocation, cufftSetWorkArea, cufftGetSize) map to hipFFT.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cufft.h>

void two_step(int n, void* work) {
  cufftHandle p;
  size_t bytes = 0;
  cufftCreate(&p);
  // CHECK: hipfftCreate(&p);
  cufftSetAutoAllocation(p, 0);
  // CHECK-NEXT: hipfftSetAutoAllocation(p, 0);
  cufftMakePlan1d(p, n, CUFFT_C2C, 1, &bytes);
  // CHECK-NEXT: hipfftMakePlan1d(p, n, HIPFFT_C2C, 1, &bytes);
  cufftSetWorkArea(p, work);
  // CHECK-NEXT: hipfftSetWorkArea(p, work);
  cufftGetSize(p, &bytes);
  // CHECK-NEXT: hipfftGetSize(p, &bytes);
}
// REPORT: 0 errors, 0 warnings
