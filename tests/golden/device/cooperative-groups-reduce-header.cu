// HIP 5.2 cooperative groups have no reduce/scan: <cooperative_groups/reduce.h> is an
// unsupported-header error (exit 1) and the include is left as written.
// RUN: not %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
// CHECK: #include <hip/hip_cooperative_groups.h>
// CHECK-NEXT: #include <cooperative_groups/reduce.h>
// REPORT: cooperative-groups-reduce-header.cu:6:10: error: {{.*}}cooperative_groups/reduce.h{{.*}}[unsupported-header]
// REPORT-NEXT: fix: {{.*}}shuffles
// REPORT: 1 errors
