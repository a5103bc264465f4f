// --launch ggl: a launch inside a function template, whose kernel takes the template's
// parameter, is rewritten like any other; the dependent template argument list is wrapped.
// RUN: %gpuport translate --launch ggl %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

template <typename T> __global__ void copy(const T* in, T* out) {}

template <typename T> void run(const T* in, T* out, int n) {
  copy<T><<<n / 128, 128>>>(in, out);
  // CHECK: {{^}}  hipLaunchKernelGGL(HIP_KERNEL_NAME(copy<T>), dim3(n / 128), dim3(128), 0, 0, in, out);
}
// REPORT: 0 errors, 0 warnings
