// <cooperative_groups/reduce.h> goes to HIP's cooperative groups header (a duplicate of the
// one before it, so its line goes) and brings gpuport's reduce shim, placed after the runtime
// include that HIP 5.2's cooperative groups need before them (one runtime include, not two);
// no HIP has a scan: <cooperative_groups/scan.h> is an unsupported-header error (exit 1), left
// as written.
// RUN: not %gpuport translate %s 2>%t.err > %t.out
// RUN: grep -v -e CHECK -e RUN -e REPORT -e COUNT %t.out | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
// RUN: grep -v CHECK %t.out | grep -c 'include <hip/hip_runtime.h>' | FileCheck --check-prefix=COUNT %s
// COUNT: {{^}}1{{$}}
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
// CHECK: #include <hip/hip_runtime.h>
// CHECK-NEXT: #if !defined(GPUPORT_CG_REDUCE)
// CHECK: #endif
// CHECK-NEXT: #endif
// CHECK-NEXT: #include <hip/hip_cooperative_groups.h>
// CHECK-NEXT: #include <cooperative_groups/scan.h>
// CHECK-NOT: #include
namespace cg = cooperative_groups;
__global__ void total(const float* in, float* out) {
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  out[0] = cg::reduce(warp, in[threadIdx.x], cg::plus<float>());
}
// REPORT: cooperative-groups-reduce-scan-headers.cu:13:10: error: {{.*}}cooperative_groups/scan.h{{.*}}[unsupported-header]
// REPORT-NEXT: fix: {{.*}}shuffles
// REPORT: 1 errors
