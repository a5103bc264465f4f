// Thread-block clusters (sm_90) are not in HIP: this_cluster is an unsupported-api error
// whether written cooperative_groups::this_cluster or through the usual alias cg::; the rest
// of the cooperative-groups code is unchanged.
// RUN: not %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void clustered(int* out) {
  auto block = cg::this_thread_block();
  // CHECK: auto block = cg::this_thread_block();
  auto cluster = cooperative_groups::this_cluster();
  // CHECK-NEXT: auto cluster = cooperative_groups::this_cluster();
  auto same = cg::this_cluster();
  // CHECK-NEXT: auto same = cg::this_cluster();
  out[block.thread_rank()] = 0;
}
// REPORT: this-cluster-unsupported.cu:12:38: error: 'this_cluster' (cooperative-groups) has no HIP equivalent [unsupported-api]
// REPORT: this-cluster-unsupported.cu:14:19: error: 'this_cluster' (cooperative-groups) has no HIP equivalent [unsupported-api]
// REPORT: 2 errors, 0 warnings
