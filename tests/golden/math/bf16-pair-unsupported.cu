// HIP 5.2 has no bf16 pair type and no bf16 intrinsics: __nv_bfloat162 and
// __bfloat1622float2 are unsupported-api errors.
// RUN: not %gpuport translate --hip-version 5.2 %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_bf16.h>

__device__ float2 widen(__nv_bfloat162 p) {
  return __bfloat1622float2(p);
  // CHECK: return __bfloat1622float2(p);
}
// REPORT: bf16-pair-unsupported.cu:7:25: error: '__nv_bfloat162' (bf16) has no HIP equivalent [unsupported-api]
// REPORT-NEXT: fix: {{.*}}two hip_bfloat16
// REPORT: bf16-pair-unsupported.cu:8:10: error: '__bfloat1622float2' (bf16) has no HIP equivalent [unsupported-api]
// REPORT: 2 errors, 0 warnings
