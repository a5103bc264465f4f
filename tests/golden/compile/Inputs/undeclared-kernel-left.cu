// Launches undeclared-kernel-in-template.cu leaves alone: outside a template (nvcc rejects it
// too), of a kernel the file declares after the template, and of a macro.
#include <cuda_runtime.h>

void host_launch(float* p) { missing<<<1, 1>>>(p); }

template <class T>
void later(T* p) { declared_after<<<1, 1>>>(p); }
__global__ void declared_after(float* p) { *p = 1; }

#define STEP step_kernel
template <class T>
void by_macro(T* p) { STEP<<<1, 1>>>(p); }
