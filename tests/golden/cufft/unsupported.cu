// cufftw.h (the FFTW interface) has no hipFFT equivalent and neither has
// cufftSetCompatibilityMode: an unsupported-header and an unsupported-api error.
// RUN: not %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cufft.h>
#include <cufftw.h>
// CHECK: #include <hipfft/hipfft.h>
// CHECK-NEXT: #include <cufftw.h>

void compat(cufftHandle p) {
  cufftSetCompatibilityMode(p, CUFFT_COMPATIBILITY_FFTW_PADDING);
  // CHECK: cufftSetCompatibilityMode(p, CUFFT_COMPATIBILITY_FFTW_PADDING);
}
// REPORT: unsupported.cu:6:10: error: {{.*}}[unsupported-header]
// REPORT: unsupported.cu:11:3: error: 'cufftSetCompatibilityMode' (cufft) has no HIP equivalent [unsupported-api]
