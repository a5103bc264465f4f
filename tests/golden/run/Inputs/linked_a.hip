// One of two device-only units assembled and linked separately (run/linked-code-object.test).
#include <hip/hip_runtime.h>
extern "C" __global__ void add_one(int* p) { p[threadIdx.x] += 1; }
