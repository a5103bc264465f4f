// --to cuda reads HIP's NVIDIA platform macros as __CUDACC__ (nvcc defines it; HIP's headers,
// which defined them, are gone); --keep-platform-macros leaves them as written, for builds that
// define them themselves.
// RUN: %gpuport translate --to cuda %s 2>/dev/null | grep -v -e CHECK -e RUN | FileCheck %s
// RUN: %gpuport translate --to cuda --keep-platform-macros %s 2>/dev/null | grep -v -e CHECK -e RUN | FileCheck --check-prefix=KEEP %s
// RUN: not %gpuport translate --keep-platform-macros %s 2>&1 | FileCheck --check-prefix=USAGE %s
#if defined(__HIP_PLATFORM_NVIDIA__) && !defined(__HIP_PLATFORM_AMD__)
// CHECK: #if defined(__CUDACC__) && !defined(__HIP_PLATFORM_AMD__)
// KEEP: #if defined(__HIP_PLATFORM_NVIDIA__) && !defined(__HIP_PLATFORM_AMD__)
int platform = 1;
#endif
// USAGE: --keep-platform-macros applies to --to cuda
