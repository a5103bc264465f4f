// A kernel declared as a template and launched with deduced template arguments, or through an
// object-like macro that names a template instance, gets HIP_KERNEL_NAME(...) like an explicit
// instance (hipify-clang does the same). `::k<<<...>>>` keeps its `::` on the kernel's name.
// RUN: %gpuport translate --launch ggl %s 2>%t.err | grep -v -e CHECK -e RUN | FileCheck %s
template <typename T>
__global__ void square(T* out, const T* in, int n) {}
__global__ void plain(int* out) {}
#define SQUARE_FLOAT square<float>
void run(float* o, const float* i, int n, int* p) {
  square<<<1, 256>>>(o, i, n);
  // CHECK: hipLaunchKernelGGL(HIP_KERNEL_NAME(square), dim3(1), dim3(256), 0, 0, o, i, n);
  SQUARE_FLOAT<<<1, 256>>>(o, i, n);
  // CHECK: hipLaunchKernelGGL(HIP_KERNEL_NAME(SQUARE_FLOAT), dim3(1), dim3(256), 0, 0, o, i, n);
  plain<<<1, 1>>>(p);
  // CHECK: hipLaunchKernelGGL(plain, dim3(1), dim3(1), 0, 0, p);
  ::plain<<<1, 1>>>(p);
  // CHECK: hipLaunchKernelGGL(::plain, dim3(1), dim3(1), 0, 0, p);
}
