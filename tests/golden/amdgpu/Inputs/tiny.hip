#include <hip/hip_runtime.h>
// Needs nothing from the device libraries, so it builds for any GPU with -nogpulib.
__global__ void tiny(int* p) { *p = 42; }
