// meta_group_rank() / meta_group_size() of a tile or coalesced group: HIP 5.2's cooperative
// groups lack them (the translation would not compile for AMD), so each use on an object
// declared with those types is an unsupported-member error; with --hip-version 6.2 they are
// kept, HIP 6.2 has them. A member of the same name on the user's own struct is left alone.
// RUN: not %gpuport translate --hip-version 5.2 %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
// RUN: %gpuport translate --hip-version 6.2 %s 2>%t62.err > /dev/null
// RUN: FileCheck --check-prefix=V62 %s < %t62.err
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
struct Mine {
  unsigned meta_group_rank() const { return 7; }
};
__global__ void ranks(unsigned* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  const cg::thread_block_tile<16>& tile16 = cg::tiled_partition<16>(block);
  Mine mine;
  out[0] = warp.meta_group_rank() + tile16.meta_group_size() + mine.meta_group_rank();
  // CHECK: out[0] = warp.meta_group_rank() + tile16.meta_group_size() + mine.meta_group_rank();
}
// REPORT: cg-meta-group.cu:19:17: error: thread_block_tile member 'meta_group_rank' has no HIP counterpart [unsupported-member]
// REPORT-NEXT: fix: {{.*}}block.thread_rank() / N
// REPORT: cg-meta-group.cu:19:44: error: {{.*}}'meta_group_size'{{.*}}[unsupported-member]
// REPORT-NOT: :19:{{6[0-9]}}
// REPORT: 2 errors
// V62: 0 errors
