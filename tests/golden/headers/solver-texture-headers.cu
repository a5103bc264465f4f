// cuda_texture_types.h has a HIP twin of its own; cusolverRf.h and cusolverSp.h become
// hipSOLVER's header, which carries the hipsolverRf* compatibility API (ROCm 5.7 and later) and
// part of hipsolverSp* (ROCm 6.1 and later). One hipSOLVER include is left for the three
// cuSOLVER headers.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>
#include "cuda_texture_types.h"
// CHECK: #include "hip/hip_texture_types.h"
#include "cusolverDn.h"
#include "cusolverRf.h"
#include "cusolverSp.h"
// CHECK: #include "hipsolver/hipsolver.h"
// CHECK-NOT: cusolver
// CHECK-NOT: #include "hipsolver
// REPORT-NOT: unsupported-header
// REPORT: 0 errors
