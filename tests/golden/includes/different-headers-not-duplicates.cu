// Headers that map to different HIP headers are all kept (runtime vs runtime API).
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>
#include <cuda_runtime_api.h>
#include <cuda_fp16.h>
// CHECK: {{^}}#include <hip/hip_runtime.h>
// CHECK-NEXT: {{^}}#include <hip/hip_runtime_api.h>
// CHECK-NEXT: {{^}}#include <hip/hip_fp16.h>
// REPORT: 0 errors, 0 warnings
