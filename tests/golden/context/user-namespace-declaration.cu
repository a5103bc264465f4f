// A function declared in the user's own namespace with an API name is the user's: its
// declaration is kept, consistent with its qualified uses (mylib::cudaMalloc), which are kept.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
#include <cuda_runtime.h>

namespace mylib {
int cudaMalloc(void** p, int n);
// CHECK: {{^}}int cudaMalloc(void** p, int n);
}

void f(void* d) { mylib::cudaMalloc(&d, 4); }
// CHECK: {{^}}void f(void* d) { mylib::cudaMalloc(&d, 4); }
