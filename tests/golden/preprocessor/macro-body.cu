// Names in a macro's replacement list are translated; the macro's own name and parameters
// are the user's and stay.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

#define ALLOC(ptr, bytes) cudaMalloc((void**)&(ptr), (bytes))
// CHECK: {{^}}#define ALLOC(ptr, bytes) hipMalloc((void**)&(ptr), (bytes)){{$}}
#define STREAM_T cudaStream_t
// CHECK-NEXT: {{^}}#define STREAM_T hipStream_t{{$}}
#define TO_DEVICE cudaMemcpyHostToDevice
// CHECK-NEXT: {{^}}#define TO_DEVICE hipMemcpyHostToDevice{{$}}
// REPORT: 0 errors, 0 warnings
