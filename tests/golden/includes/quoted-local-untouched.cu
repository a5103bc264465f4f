// Quoted includes of the project's own files are left alone even when their names contain
// "cuda": only names in the header tables are mapped.
// RUN: %gpuport translate --no-follow-includes %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>
#include "my-cuda.h"
#include "cuda_helpers.h"
#include "utils/cuda_check.hpp"
// CHECK: {{^}}#include <hip/hip_runtime.h>
// CHECK-NEXT: {{^}}#include "my-cuda.h"
// CHECK-NEXT: {{^}}#include "cuda_helpers.h"
// CHECK-NEXT: {{^}}#include "utils/cuda_check.hpp"
// REPORT: 0 errors, 0 warnings
