// A shared library of the program's own that holds its kernel and links HIP (as a CMake project
// built with BUILD_SHARED_LIBS does); Inputs/uses_library.cpp is the executable.
#include <hip/hip_runtime.h>

__global__ void twice(int* p) { p[threadIdx.x] *= 2; }

extern "C" int run_twice(int* host, int n) {
  int* d = nullptr;
  if (hipMalloc(&d, n * sizeof(int)) != hipSuccess) return 1;
  if (hipMemcpy(d, host, n * sizeof(int), hipMemcpyHostToDevice) != hipSuccess) return 2;
  twice<<<1, n>>>(d);
  if (hipGetLastError() != hipSuccess) return 3;
  if (hipMemcpy(host, d, n * sizeof(int), hipMemcpyDeviceToHost) != hipSuccess) return 4;
  return hipFree(d) == hipSuccess ? 0 : 5;
}
