// Batched plans: cufftPlanMany -> hipfftPlanMany with the same nine arguments; the double
// precision Z2Z transform (CUFFT_Z2Z, cufftExecZ2Z, cufftDoubleComplex) maps too.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cufft.h>

void many(cufftDoubleComplex* d, int n, int batch) {
  cufftHandle p;
  int dims[1] = {n};
  cufftPlanMany(&p, 1, dims, nullptr, 1, n, nullptr, 1, n, CUFFT_Z2Z, batch);
  // CHECK: hipfftPlanMany(&p, 1, dims, nullptr, 1, n, nullptr, 1, n, HIPFFT_Z2Z, batch);
  cufftExecZ2Z(p, d, d, CUFFT_FORWARD);
  // CHECK-NEXT: hipfftExecZ2Z(p, d, d, HIPFFT_FORWARD);
}
// REPORT: 0 errors, 0 warnings
