// cuFFT becomes hipFFT, under the hipfft/ folder.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cstdio>
#include <cufft.h>
// CHECK: {{^}}#include <cstdio>
// CHECK-NEXT: {{^}}#include <hipfft/hipfft.h>
int placeholder = 0;
// CHECK-NEXT: {{^}}int placeholder = 0;
// REPORT: 0 errors, 0 warnings
