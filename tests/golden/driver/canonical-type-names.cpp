// Types map to HIP's canonical typedef names, as hipify-clang writes them: CUarray to hipArray_t
// (not its alias hiparray), cudaUUID_t to hipUUID (not the struct tag hipUUID_t), curandRngType
// to hiprandRngType_t (the typedef of the enum tag hiprandRngType).
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN | FileCheck %s
#include <cuda.h>
#include <curand.h>
#include <device_functions.h>
// CHECK: {{^}}#include <hip/device_functions.h>
CUarray array;
// CHECK: {{^}}hipArray_t array;
cudaUUID_t uuid;
// CHECK: {{^}}hipUUID uuid;
curandRngType rng;
// CHECK: {{^}}hiprandRngType_t rng;
