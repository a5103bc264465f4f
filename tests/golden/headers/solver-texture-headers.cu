// cuda_texture_types.h has a HIP twin of its own; cusolverRf.h, cusolverSp.h and
// cusolverSp_LOWLEVEL_PREVIEW.h become
// hipSOLVER's header, which carries the hipsolverRf* compatibility API (ROCm 5.7 and later) and
// part of hipsolverSp* (ROCm 6.1 and later). One hipSOLVER include is left for the four
// cuSOLVER headers. cusolverMg.h stays an error: ROCm has no multi-GPU solver.
// RUN: not %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>
#include "cuda_texture_types.h"
// CHECK: #include "hip/hip_texture_types.h"
#include "cusolverDn.h"
#include "cusolverRf.h"
#include "cusolverSp.h"
#include "cusolverSp_LOWLEVEL_PREVIEW.h"
// CHECK: #include "hipsolver/hipsolver.h"
// CHECK-NOT: cusolver
// CHECK-NOT: #include "hipsolver
#include "cusolverMg.h"
// CHECK: #include "cusolverMg.h"
// REPORT: 18:10: error: <cusolverMg.h> (headers) has no HIP counterpart [unsupported-header]
// REPORT-NOT: unsupported-header
// REPORT: 1 errors
