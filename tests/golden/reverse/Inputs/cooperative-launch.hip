// A cooperative launch of a kernel template, as HIP code writes it.
#include <hip/hip_runtime.h>
template <int N> __global__ void k(int* p) { p[threadIdx.x] = N; }
int run(int* p) {
  void* args[] = {&p};
  return hipLaunchCooperativeKernel(k<4>, dim3(1), dim3(32), args, 0, hipStreamDefault) == hipSuccess;
}
