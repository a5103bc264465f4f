// cudaError_t enumerators map to their hipError_t twins, including the ones whose HIP name
// differs (cudaErrorMemoryAllocation is hipErrorOutOfMemory).
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

const char* classify(cudaError_t e) {
  switch (e) {
    case cudaSuccess: return "ok";
    // CHECK: {{^}}    case hipSuccess: return "ok";
    case cudaErrorInvalidValue: return "bad value";
    // CHECK-NEXT: {{^}}    case hipErrorInvalidValue: return "bad value";
    case cudaErrorMemoryAllocation: return "out of memory";
    // CHECK-NEXT: {{^}}    case hipErrorOutOfMemory: return "out of memory";
    case cudaErrorInvalidDevice: return "bad device";
    // CHECK-NEXT: {{^}}    case hipErrorInvalidDevice: return "bad device";
    case cudaErrorNotReady: return "busy";
    // CHECK-NEXT: {{^}}    case hipErrorNotReady: return "busy";
    default: return "other";
  }
}
// REPORT: 0 errors, 0 warnings
