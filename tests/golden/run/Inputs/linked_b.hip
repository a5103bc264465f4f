// One of two device-only units assembled and linked separately (run/linked-code-object.test).
#include <hip/hip_runtime.h>
extern "C" __global__ void times_two(int* p) { p[threadIdx.x] *= 2; }
